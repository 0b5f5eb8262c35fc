// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DogBreeds",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Core", targets: ["Core"]),
    .library(name: "CoreTesting", targets: ["CoreTesting"]),
    .library(name: "LocalFiles", targets: ["LocalFiles"]),
    .library(name: "DogAPIClient", targets: ["DogAPIClient"]),
    .library(name: "FavouritesClient", targets: ["FavouritesClient"]),
    .library(name: "ImageDecoding", targets: ["ImageDecoding"]),
    .library(name: "TextRendering", targets: ["TextRendering"]),
    .library(name: "DogsFeature", targets: ["DogsFeature"]),
    .library(name: "BreedFeature", targets: ["BreedFeature"]),
    .library(name: "FavouritesFeature", targets: ["FavouritesFeature"]),
    .library(name: "AppFeature", targets: ["AppFeature"]),
    .library(name: "CommandLineInterface", targets: ["CommandLineInterface"]),
    .library(name: "SessionRecording", targets: ["SessionRecording"]),
    .library(name: "DogBreedsCLIKit", targets: ["DogBreedsCLIKit"]),
    .executable(name: "DogBreedsCLI", targets: ["DogBreedsCLI"]),
  ],
  targets: [
    // MARK: - Core and clients
    .target(name: "Core", path: "Modules/Core"),
    .target(name: "CoreTesting", dependencies: ["Core"], path: "Modules/CoreTesting"),
    .target(name: "LocalFiles", path: "Modules/LocalFiles"),
    .target(name: "DogAPIClient", dependencies: ["Core", "LocalFiles"], path: "Modules/DogAPIClient"),
    .target(
      name: "FavouritesClient", dependencies: ["Core", "LocalFiles"], path: "Modules/FavouritesClient"),
    .target(name: "ImageDecoding", path: "Modules/ImageDecoding"),
    .target(name: "TextRendering", dependencies: ["ImageDecoding"], path: "Modules/TextRendering"),

    // MARK: - Features
    .target(
      name: "DogsFeature", dependencies: ["Core", "DogAPIClient", "TextRendering"],
      path: "Modules/DogsFeature"),
    .target(
      name: "BreedFeature", dependencies: ["Core", "DogAPIClient", "ImageDecoding", "TextRendering"],
      path: "Modules/BreedFeature"),
    .target(
      name: "FavouritesFeature", dependencies: ["Core", "DogAPIClient", "ImageDecoding", "TextRendering"],
      path: "Modules/FavouritesFeature"),

    // MARK: - App feature
    .target(
      name: "AppFeature",
      dependencies: [
        "BreedFeature", "Core", "DogAPIClient", "DogsFeature", "FavouritesClient", "FavouritesFeature",
        "TextRendering",
      ],
      path: "Modules/AppFeature"),

    // MARK: - Apps
    .target(
      name: "CommandLineInterface",
      dependencies: ["AppFeature", "DogAPIClient", "DogsFeature", "LocalFiles", "TextRendering"],
      path: "Modules/CommandLineInterface"),
    .target(
      name: "SessionRecording",
      dependencies: [
        "AppFeature", "BreedFeature", "CommandLineInterface", "Core", "DogAPIClient", "DogsFeature",
        "FavouritesClient", "FavouritesFeature", "ImageDecoding", "TextRendering",
      ],
      path: "Modules/SessionRecording"),
    .target(
      name: "DogBreedsCLIKit",
      dependencies: [
        "AppFeature", "BreedFeature", "CommandLineInterface", "Core", "DogAPIClient", "DogsFeature",
        "FavouritesClient", "FavouritesFeature", "ImageDecoding", "LocalFiles", "SessionRecording",
        "TextRendering",
      ],
      path: "Modules/DogBreedsCLIKit"),
    .executableTarget(name: "DogBreedsCLI", dependencies: ["DogBreedsCLIKit"], path: "Apps/DogBreedsCLI"),
    .executableTarget(
      name: "DogBreedsBench",
      dependencies: [
        "AppFeature", "Core", "DogAPIClient", "DogsFeature", "ImageDecoding", "TextRendering",
      ],
      path: "Apps/DogBreedsBench"),

    // MARK: - Test support
    .target(name: "TestHTTPServer", path: "Tests/Support/TestHTTPServer"),
    .target(name: "TestSupport", dependencies: ["Core"], path: "Tests/Support/TestSupport"),
    .target(name: "VirtualTerminal", dependencies: ["TextRendering"], path: "Tests/Support/VirtualTerminal"),
    .target(name: "CPseudoTerminal", path: "Tests/Support/CPseudoTerminal"),
    .target(
      name: "FuzzChecks",
      dependencies: ["DogAPIClient", "ImageDecoding", "TextRendering", "VirtualTerminal"],
      path: "Fuzz/Checks"),
    .target(name: "CFuzzer", path: "Fuzz/CFuzzer"),
    .executableTarget(name: "DogBreedsFuzz", dependencies: ["CFuzzer", "FuzzChecks"], path: "Fuzz/Harness"),
    .target(
      name: "PseudoTerminal",
      dependencies: ["CPseudoTerminal", "TestSupport", "TextRendering", "VirtualTerminal"],
      path: "Tests/Support/PseudoTerminal"),

    // MARK: - Tests
    .testTarget(name: "ArchitectureTests", path: "Tests/ArchitectureTests"),
    .testTarget(
      name: "CoreTests", dependencies: ["Core", "CoreTesting", "TestSupport"], path: "Tests/CoreTests"),
    .testTarget(
      name: "DogAPIClientTests",
      dependencies: ["Core", "CoreTesting", "DogAPIClient", "LocalFiles", "TestHTTPServer", "TestSupport"],
      path: "Tests/DogAPIClientTests", exclude: ["Fixtures"]),
    .testTarget(
      name: "LocalFilesTests", dependencies: ["LocalFiles", "TestSupport"], path: "Tests/LocalFilesTests"),
    .testTarget(
      name: "FavouritesClientTests", dependencies: ["FavouritesClient", "LocalFiles", "TestSupport"],
      path: "Tests/FavouritesClientTests"),
    .testTarget(
      name: "ImageDecodingTests", dependencies: ["ImageDecoding", "TestSupport"],
      path: "Tests/ImageDecodingTests", exclude: ["Fixtures"]),
    .testTarget(
      name: "TextRenderingTests",
      dependencies: ["ImageDecoding", "TestSupport", "TextRendering", "VirtualTerminal"],
      path: "Tests/TextRenderingTests", exclude: ["Fixtures"]),
    .testTarget(
      name: "DogsFeatureTests",
      dependencies: ["Core", "CoreTesting", "DogAPIClient", "DogsFeature", "TextRendering", "TestSupport"],
      path: "Tests/DogsFeatureTests"),
    .testTarget(
      name: "BreedFeatureTests",
      dependencies: [
        "BreedFeature", "Core", "CoreTesting", "DogAPIClient", "ImageDecoding", "TextRendering",
        "TestSupport",
      ],
      path: "Tests/BreedFeatureTests"),
    .testTarget(
      name: "FavouritesFeatureTests",
      dependencies: [
        "Core", "CoreTesting", "DogAPIClient", "FavouritesFeature", "ImageDecoding", "TextRendering",
        "TestSupport",
      ],
      path: "Tests/FavouritesFeatureTests"),
    .testTarget(
      name: "AppFeatureTests",
      dependencies: [
        "AppFeature", "BreedFeature", "Core", "CoreTesting", "DogAPIClient", "DogsFeature",
        "FavouritesClient", "FavouritesFeature", "ImageDecoding", "SessionRecording", "TextRendering",
        "TestSupport",
      ],
      path: "Tests/AppFeatureTests", exclude: ["Recordings"]),
    .testTarget(
      name: "DogBreedsCLITests",
      dependencies: ["DogBreedsCLI", "PseudoTerminal", "TestHTTPServer", "TestSupport", "VirtualTerminal"],
      path: "Tests/DogBreedsCLITests"),
    .testTarget(
      name: "DogBreedsCLIKitTests",
      dependencies: [
        "AppFeature", "CommandLineInterface", "Core", "CPseudoTerminal", "DogAPIClient", "DogBreedsCLIKit",
        "FavouritesClient",
        "ImageDecoding", "SessionRecording", "TestSupport", "TextRendering", "VirtualTerminal",
      ],
      path: "Tests/DogBreedsCLIKitTests", exclude: ["Fixtures"]),
    .testTarget(
      name: "CommandLineInterfaceTests",
      dependencies: ["CommandLineInterface", "DogAPIClient", "TestSupport", "TextRendering"],
      path: "Tests/CommandLineInterfaceTests"),
    .testTarget(
      name: "FuzzFindingsTests", dependencies: ["FuzzChecks", "TestSupport"], path: "Tests/FuzzFindingsTests"),
    .testTarget(
      name: "CoreTestingTests", dependencies: ["Core", "CoreTesting", "TestSupport"],
      path: "Tests/CoreTestingTests"),
  ]
)
