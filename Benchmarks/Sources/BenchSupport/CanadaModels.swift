import KilnModel

// canada.json (shared benchdata), a GeoJSON outline of Canada: almost all of it is numbers,
// `[[[Double]]]` rings of longitude/latitude pairs.

/// canada.json as a team writes it for Foundation's `JSONDecoder`: strict `Codable`.
public struct StrictCanada: Codable, Equatable, Sendable {
    public var type: String
    public var features: [StrictCanadaFeature]
}

/// One feature: a name and a polygon.
public struct StrictCanadaFeature: Codable, Equatable, Sendable {
    public var type: String
    public var properties: [String: String]
    public var geometry: StrictCanadaGeometry
}

/// The polygon's rings.
public struct StrictCanadaGeometry: Codable, Equatable, Sendable {
    public var type: String
    public var coordinates: [[[Double]]]
}

/// canada.json as `@DataModel` types.
@DataModel
public struct Canada: Equatable, Sendable {
    public var type = ""
    public var features: [CanadaFeature] = []
}

/// One feature: a name and a polygon.
@DataModel
public struct CanadaFeature: Equatable, Sendable {
    public var type = ""
    public var properties: [String: String] = [:]
    public var geometry = CanadaGeometry()
}

/// The polygon's rings of longitude/latitude pairs.
@DataModel
public struct CanadaGeometry: Equatable, Sendable {
    public var type = ""
    public var coordinates: [[[Double]]] = []
}
