import Trellis

/// What the ids of objects are: ``Id`` (a `UInt64`) and ``EntityId``, the
/// id of one entity type. The box methods that take an id take either.
///
/// ```swift
/// let id: Id = 42
/// let typed = EntityId<Person>(id)
/// #expect(typed.value == id.value)
/// ```
public protocol IdBase: Hashable, Sendable {
    /// An id from its untyped value.
    init(_ entityId: Id)
    /// The untyped value of the id.
    var value: Id { get }
}

extension UInt64: IdBase {
    /// The id itself: ``Id`` has the `value` of every ``IdBase``.
    ///
    /// ```swift
    /// let person = Person()
    /// assert(person.id.value == 0)
    /// ```
    public var value: Id { self }
}

/// The id of an object of type `E`: a ``Id`` that can not be mistaken for
/// the id of another entity type. 0 means "not stored yet".
///
/// ```swift
/// class Teacher: Entity {
///     var id: EntityId<Teacher> = 0
///     var name = ""
/// }
/// let teacher = Teacher()
/// try teacherBox.put(teacher)
/// print(teacher.id.value)                  // the id the store chose
/// let again = try teacherBox.get(teacher.id)
/// ```
///
/// It is stored as the integer `value`, as an ``Id`` is.
public struct EntityId<E>: IdBase, ExpressibleByIntegerLiteral, CustomStringConvertible, Codable {
    /// The untyped value of the id.
    public let value: Id

    /// The id with the given untyped value.
    public init(_ identifier: Id) {
        value = identifier
    }

    /// An id written as a number: `var id: EntityId<Teacher> = 0`.
    public init(integerLiteral value: Id) {
        self.value = value
    }

    public var description: String { value.description }

    /// Decodes the untyped value.
    ///
    /// - Throws: A `DecodingError` if the decoder does not hold an unsigned
    ///   integer.
    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Id.self)
    }

    /// Encodes the untyped value.
    ///
    /// - Throws: The error of the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension EntityId: DatabaseValueConvertible {
    /// The value, with all the bits of the `UInt64`, as the store keeps ids.
    public var databaseValue: DatabaseValue {
        Int64(bitPattern: value).databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> EntityId? {
        Int64.fromDatabaseValue(dbValue).map { EntityId(Id(bitPattern: $0)) }
    }
}
