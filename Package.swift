// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DogBreeds",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Core", targets: ["Core"]),
    .library(name: "CoreTesting", targets: ["CoreTesting"]),
  ],
  targets: [
    // MARK: - Core and clients
    .target(name: "Core", path: "Modules/Core"),
    .target(name: "CoreTesting", dependencies: ["Core"], path: "Modules/CoreTesting"),

    // MARK: - Apps
    .executableTarget(name: "DogBreedsBench", dependencies: ["Core"], path: "Apps/DogBreedsBench"),

    // MARK: - Tests
    .testTarget(name: "ArchitectureTests", path: "Tests/ArchitectureTests"),
    .testTarget(name: "CoreTests", dependencies: ["Core", "CoreTesting"], path: "Tests/CoreTests"),
    .testTarget(
      name: "CoreTestingTests", dependencies: ["Core", "CoreTesting"], path: "Tests/CoreTestingTests"),
  ]
)
