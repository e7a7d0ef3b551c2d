import KilnModel

extension KilnDecoder {
    /// A decoder that reads `@DataModel` types through their generated `init(from:)` over
    /// `KilnDecoder`'s own `Decoder` containers instead of their fast `init(kiln:)`: the
    /// benchmark's "generic Decoder path" row, and what the tests compare with the fast path.
    public static var decoderProtocolPath: KilnDecoder {
        var decoder = KilnDecoder()
        decoder.usesFastPath = false
        return decoder
    }
}
