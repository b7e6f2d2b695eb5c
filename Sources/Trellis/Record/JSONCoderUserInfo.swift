import Foundation

/// The user info of a record, as the JSON coders of its JSON columns take
/// it.
///
/// Records give their user info as `[CodingUserInfoKey: Any]`, the type
/// GRDB documents, while Foundation's JSON coders want `any Sendable`
/// values. The coders that receive it are made for one column and used at
/// once, on the thread that made them: no value crosses to another
/// thread. `Sendable` has no runtime representation, so both dictionary
/// types have the same layout and the values are handed over unchanged,
/// which a nested `Codable` value needs to find them with `as?`.
func sendableUserInfo(_ userInfo: [CodingUserInfoKey: Any]) -> [CodingUserInfoKey: any Sendable] {
    unsafeBitCast(userInfo, to: [CodingUserInfoKey: any Sendable].self)
}
