/// A sequence of elements that may throw while it is iterated, such as the
/// rows of a database query.
///
/// ```swift
/// let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
/// while let name = try names.next() {
///     print(name)
/// }
/// ```
///
/// Cursors read the database lazily: iterate them inside the database
/// access that created them.
public protocol Cursor<Element>: AnyObject {
    associatedtype Element

    /// The next element, or nil at the end.
    ///
    /// - Throws: A ``DatabaseError`` or ``RowDecodingError`` for a cursor of
    ///   fetched rows; a cursor of another kind throws what its source throws.
    func next() throws -> Element?

    /// Calls `body` with each element. Cursors that wrap another one
    /// forward it, so that the base cursor iterates in its own way.
    ///
    /// - Throws: The error of the cursor, or the error thrown by `body`.
    func forEach(_ body: (Element) throws -> Void) throws
}

extension Cursor {
    /// Whether the cursor has no element. It reads one element to know:
    /// a cursor that is not empty has one element less afterwards.
    ///
    /// ```swift
    /// let noPlayer = try Player.fetchCursor(db).isEmpty
    /// ```
    ///
    /// - Throws: The error of the cursor.
    public var isEmpty: Bool {
        get throws { try next() == nil }
    }

    /// Calls `body` with each element.
    ///
    /// - Throws: The error of the cursor, or the error thrown by `body`.
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() {
            try body(element)
        }
    }

    /// A cursor of the non-nil transformed elements.
    public func compactMap<T>(_ transform: @escaping (Element) throws -> T?) -> AnyCursor<T> {
        AnyCursor {
            while let element = try self.next() {
                if let transformed = try transform(element) { return transformed }
            }
            return nil
        }
    }

    /// Combines the elements.
    ///
    /// - Throws: The error of the cursor, or the error thrown by the closure.
    @inlinable
    public func reduce<Result>(_ initialResult: Result, _ combine: (Result, Element) throws -> Result) throws -> Result {
        var result = initialResult
        while let element = try next() {
            result = try combine(result, element)
        }
        return result
    }

    /// Combines the elements into a mutable result.
    ///
    /// - Throws: The error of the cursor, or the error thrown by the closure.
    @inlinable
    public func reduce<Result>(into initialResult: Result, _ update: (inout Result, Element) throws -> Void) throws -> Result {
        var result = initialResult
        while let element = try next() {
            try update(&result, element)
        }
        return result
    }

    /// The first element that satisfies `predicate`.
    ///
    /// - Throws: The error of the cursor, or the error thrown by `predicate`.
    public func first(where predicate: (Element) throws -> Bool) throws -> Element? {
        while let element = try next() {
            if try predicate(element) { return element }
        }
        return nil
    }

    /// Whether an element satisfies `predicate`.
    ///
    /// - Throws: The error of the cursor, or the error thrown by `predicate`.
    public func contains(where predicate: (Element) throws -> Bool) throws -> Bool {
        try first(where: predicate) != nil
    }

    /// Whether every element satisfies `predicate`.
    ///
    /// - Throws: The error of the cursor, or the error thrown by `predicate`.
    public func allSatisfy(_ predicate: (Element) throws -> Bool) throws -> Bool {
        while let element = try next() {
            if try !predicate(element) { return false }
        }
        return true
    }

    /// The elements, in an array.
    ///
    /// - Throws: The error of the cursor.
    public func toArray() throws -> [Element] {
        try Array(self)
    }
}

extension Cursor {
    /// All elements but the last `k`.
    ///
    /// - Throws: The error of the cursor.
    public func dropLast(_ k: Int = 1) throws -> [Element] {
        let elements = try Array(self)
        return Array(elements.dropLast(Swift.max(k, 0)))
    }

    /// The last `maxLength` elements.
    ///
    /// - Throws: The error of the cursor.
    public func suffix(_ maxLength: Int) throws -> [Element] {
        let elements = try Array(self)
        return Array(elements.suffix(Swift.max(maxLength, 0)))
    }

    /// A cursor of the elements of the sequences that `transform` makes.
    public func flatMap<SegmentOfResult: Sequence>(
        _ transform: @escaping (Element) throws -> SegmentOfResult) -> FlattenCursor<MapCursor<Self, AnyCursor<SegmentOfResult.Element>>>
    {
        FlattenCursor(MapCursor(self) { AnyCursor(try transform($0)) })
    }

    /// The greatest element by `areInIncreasingOrder`, or nil when empty.
    ///
    /// - Throws: The error of the cursor, or the error thrown by
    ///   `areInIncreasingOrder`.
    public func max(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var result = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(result, element) { result = element }
        }
        return result
    }

    /// The least element by `areInIncreasingOrder`, or nil when empty.
    ///
    /// - Throws: The error of the cursor, or the error thrown by
    ///   `areInIncreasingOrder`.
    public func min(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var result = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(element, result) { result = element }
        }
        return result
    }
}

extension Cursor where Element: Comparable {
    /// The greatest element, or nil when empty.
    ///
    /// - Throws: The error of the cursor.
    public func max() throws -> Element? { try max(by: <) }

    /// The least element, or nil when empty.
    ///
    /// - Throws: The error of the cursor.
    public func min() throws -> Element? { try min(by: <) }
}

extension Cursor where Element: Sequence {
    /// A cursor of the elements of each sequence, in order.
    public func joined() -> AnyCursor<Element.Element> {
        var current: Element.Iterator?
        return AnyCursor {
            while true {
                if let element = current?.next() { return element }
                guard let sequence = try self.next() else { return nil }
                current = sequence.makeIterator()
            }
        }
    }
}

extension Cursor where Element: StringProtocol {
    /// The elements joined with `separator`.
    ///
    /// ```swift
    /// try String.fetchCursor(db, sql: "SELECT name FROM player").joined(separator: ", ")
    /// ```
    ///
    /// - Throws: The error of the cursor.
    public func joined(separator: String = "") throws -> String {
        try Array(self).joined(separator: separator)
    }
}

extension Cursor where Element: Equatable {
    /// Whether the cursor contains `element`.
    ///
    /// - Throws: The error of the cursor.
    public func contains(_ element: Element) throws -> Bool {
        try contains { $0 == element }
    }
}

/// A type-erased cursor.
public final class AnyCursor<Element>: Cursor {
    private let nextElement: () throws -> Element?

    /// A cursor whose elements come from `next`.
    public init(_ next: @escaping () throws -> Element?) {
        self.nextElement = next
    }

    /// A cursor that wraps `base`.
    public convenience init<C: Cursor>(_ base: C) where C.Element == Element {
        self.init { try base.next() }
    }

    /// A cursor that iterates a sequence.
    public convenience init<S: Sequence>(_ sequence: S) where S.Element == Element {
        self.init(iterator: sequence.makeIterator())
    }

    /// A cursor whose elements come from an iterator.
    ///
    /// ```swift
    /// let cursor = AnyCursor(iterator: [1, 2, 3].makeIterator())
    /// ```
    public convenience init<I: IteratorProtocol>(iterator: I) where I.Element == Element {
        var iterator = iterator
        self.init { iterator.next() }
    }

    /// The next element, or nil at the end.
    ///
    /// - Throws: The error thrown by the function that gives the elements.
    public func next() throws -> Element? {
        try nextElement()
    }
}

extension Array {
    /// The elements of a cursor.
    ///
    /// ```swift
    /// let names = try Array(String.fetchCursor(db, sql: "SELECT name FROM player"))
    /// ```
    ///
    /// - Throws: The error of the cursor.
    @inlinable
    public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        self.init()
        while let element = try cursor.next() {
            append(element)
        }
    }

    /// The first `minimumCapacity` elements are stored without reallocation.
    ///
    /// - Throws: The error of the cursor.
    @inlinable
    public init<C: Cursor>(_ cursor: C, minimumCapacity: Int) throws where C.Element == Element {
        self.init()
        reserveCapacity(minimumCapacity)
        while let element = try cursor.next() {
            append(element)
        }
    }
}

extension Set {
    /// The elements of a cursor.
    ///
    /// - Throws: The error of the cursor.
    public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        try self.init(cursor, minimumCapacity: 0)
    }

    /// The elements of a cursor, in a set that reserves room for
    /// `minimumCapacity` elements.
    ///
    /// - Throws: The error of the cursor.
    public init<C: Cursor>(_ cursor: C, minimumCapacity: Int) throws where C.Element == Element {
        self.init(minimumCapacity: minimumCapacity)
        while let element = try cursor.next() {
            insert(element)
        }
    }
}

extension Dictionary {
    /// The key-value pairs of a cursor. Throws when two pairs have the same
    /// key (where the standard library stops the process).
    ///
    /// ```swift
    /// let playersById = try Dictionary(uniqueKeysWithValues: Player.fetchCursor(db).map { ($0.id, $0) })
    /// ```
    ///
    /// - Throws: The error of the cursor; a ``DatabaseError`` (`SQLITE_MISUSE`)
    ///   if two pairs have the same key.
    public init<C: Cursor>(uniqueKeysWithValues keysAndValues: C) throws where C.Element == (Key, Value) {
        self.init()
        while let (key, value) = try keysAndValues.next() {
            guard updateValue(value, forKey: key) == nil else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Duplicate key in Dictionary(uniqueKeysWithValues:): \(key)")
            }
        }
    }

    /// The key-value pairs of a cursor; `combine` merges the values of a
    /// repeated key.
    ///
    /// - Throws: The error of the cursor, or the error thrown by `combine`.
    public init<C: Cursor>(
        _ keysAndValues: C, uniquingKeysWith combine: (Value, Value) throws -> Value) throws
    where C.Element == (Key, Value)
    {
        self.init()
        while let (key, value) = try keysAndValues.next() {
            if let existing = self[key] {
                self[key] = try combine(existing, value)
            } else {
                self[key] = value
            }
        }
    }

    /// Groups the elements of a cursor by key.
    ///
    /// - Throws: The error of the cursor, or the error thrown by `keyForValue`.
    public init<C: Cursor>(grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
    where Value == [C.Element]
    {
        self.init()
        while let element = try cursor.next() {
            try self[keyForValue(element), default: []].append(element)
        }
    }
}
