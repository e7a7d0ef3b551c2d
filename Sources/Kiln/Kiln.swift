// The umbrella module: `import Kiln` brings in every library module.
@_exported import KilnCache
@_exported import KilnModel
@_exported import KilnNetwork
@_exported import KilnNetworkCache
@_exported import KilnViewModel
