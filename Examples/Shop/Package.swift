// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Shop",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "shop", targets: ["shop"]),
    ],
    dependencies: [
        .package(name: "Wayfinder", path: "../.."),
    ],
    targets: [
        .target(name: "ShopApp", dependencies: [.product(name: "WayfinderCore", package: "Wayfinder")]),
        .executableTarget(
            name: "shop",
            dependencies: ["ShopApp", .product(name: "WayfinderServer", package: "Wayfinder")]),
        .testTarget(
            name: "ShopAppTests",
            dependencies: [
                "ShopApp",
                .product(name: "WayfinderCore", package: "Wayfinder"),
                .product(name: "WayfinderServer", package: "Wayfinder"),
                .product(name: "WayfinderTesting", package: "Wayfinder"),
                .product(name: "WayfinderLiveTesting", package: "Wayfinder"),
            ]),
    ]
)
