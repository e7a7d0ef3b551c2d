// `kiln generate` output for Tests/Fixtures/Samples/messages.json (the type renamed to GeneratedMessage),
// compiled here under default MainActor isolation.

import Foundation
import KilnModel

@DataModel(keyStyle: .snakeCase)
nonisolated public struct GeneratedMessage {
    public var msgID: Int
    public var sender: Sender
    public var content: String
    @Transform(.yyyyMMdd) public var sendDate: Date
    public var images: [String]
    public var price: String
    public var isRead: Bool
    public var type: String

    @DataModel
    nonisolated public struct Sender {
        public var uid: Int
        public var name: String
    }
}
