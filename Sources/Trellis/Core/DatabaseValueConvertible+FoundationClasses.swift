import Foundation

/// NSURL is stored as its absolute string, as URL is.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO link (url) VALUES (?)", arguments: [NSURL(string: "https://example.com")])
/// let url = try NSURL.fetchOne(db, sql: "SELECT url FROM link")
/// ```
extension NSURL: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        // `absoluteString` is optional on some platforms only.
        let string: String? = absoluteString
        return string.map { DatabaseValue(storage: .string($0)) } ?? .null
    }

    /// Text, and blobs of UTF-8 text, convert to URLs. A subclass of NSURL
    /// converts to nil: the value is a plain NSURL.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        String.fromDatabaseValue(dbValue).flatMap { NSURL(string: $0) } as? Self
    }
}

/// NSUUID is stored as its 16 bytes, as UUID is, and read from those bytes
/// or from its text form.
///
/// ```swift
/// let uuid = NSUUID()
/// try db.execute(sql: "INSERT INTO item (uuid) VALUES (?)", arguments: [uuid])
/// ```
extension NSUUID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        var bytes = [UInt8](repeating: 0, count: 16)
        getBytes(&bytes)
        return DatabaseValue(storage: .blob(Data(bytes)))
    }

    /// A subclass of NSUUID converts to nil: the value is a plain NSUUID.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        UUID.fromDatabaseValue(dbValue).flatMap { NSUUID(uuidString: $0.uuidString) } as? Self
    }
}
