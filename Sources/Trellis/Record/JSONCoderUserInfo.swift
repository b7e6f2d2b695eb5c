import Foundation

/// The user info of a record, as the JSON coders of its JSON columns take
/// it.
///
/// Records give their user info as `[CodingUserInfoKey: Any]`, the type
/// GRDB documents, while Foundation's JSON coders want `any Sendable`
/// values. The coders that receive it are made for one column and used at
/// once, on the thread that made them: no value crosses to another
/// thread. The values are handed over unchanged, which a nested `Codable`
/// value needs to find them with `as?`.
func sendableUserInfo(_ userInfo: [CodingUserInfoKey: Any]) -> [CodingUserInfoKey: any Sendable] {
    if userInfo.isEmpty { return [:] }
    return userInfo.compactMapValues { value in dynamicCast(value, to: (any Sendable).self) }
}

/// `value` as a `T`. `Sendable` is a marker protocol, which the run time
/// does not check: the cast to `any Sendable` keeps every value.
private func dynamicCast<T>(_ value: Any, to type: T.Type) -> T? {
    value as? T
}
