/// `value` as an object of `Target`, when `Target` is its exact type, else
/// nil: a comparison of two types, where a dynamic cast of an existential
/// (`decoder as? EntityDecoder`) asks the runtime to search the value's
/// type, at each relation of each object of a `Codable` entity.
///
/// An existential passed here is opened: `Value` is its dynamic type.
@inline(__always)
func exactCast<Value, Target: AnyObject>(_ value: Value, to target: Target.Type) -> Target? {
    guard Value.self == Target.self else { return nil }
    // `Value` is `Target`, checked above: its memory holds a reference
    // to a `Target`, which is loaded (and retained) as one.
    return withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: Target.self) }
}
