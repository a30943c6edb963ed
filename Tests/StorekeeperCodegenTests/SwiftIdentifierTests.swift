@testable import StorekeeperCodegen
import StorekeeperCore
import Testing

@Suite struct SwiftIdentifierTests {
    @Test(arguments: [
        ("Rocket Car", "rocketCar"),
        ("Pro Monthly", "proMonthly"),
        ("Pro - Monthly", "proMonthly"),
        ("Vehicle - Rocket Car", "vehicleRocketCar"),
        ("Coins 500 (Pouch)", "coins500Pouch"),
        ("Nitro Boosts x5", "nitroBoostsX5"),
        ("rocket-car", "rocketCar"),
        ("pro.tier_2", "proTier2"),
        ("RocketCar", "rocketCar"),
        ("VIP Pass", "vipPass"),
        ("URLPack", "urlPack"),
        ("X5", "x5"),
        ("iCloud Sync", "iCloudSync"),
        ("REMOVE ADS", "removeADS"),
    ])
    func lowerCamelCase(_ text: String, _ expected: String) {
        #expect(SwiftIdentifier.lowerCamel(text, prefix: "product") == expected)
    }

    @Test(arguments: [
        ("100 Coins", "coins100"),
        ("3D Pack", "pack3D"),
        ("2 Pack Boost", "packBoost2"),
        ("10 000 Gems", "gems10000"),
    ])
    func openingNumbersMoveToTheEnd(_ text: String, _ expected: String) {
        #expect(SwiftIdentifier.lowerCamel(text, prefix: "product") == expected)
    }

    @Test func onlyNumbersGetThePrefix() {
        #expect(SwiftIdentifier.lowerCamel("2024", prefix: "product") == "product2024")
        #expect(SwiftIdentifier.lowerCamel("2024 - 25", prefix: "feature") == "feature202425")
        #expect(SwiftIdentifier.upperCamel("2024", prefix: "Catalog") == "Catalog2024")
    }

    @Test(arguments: [
        ("Münzbeutel", "munzbeutel"),
        ("Crème Brûlée", "cremeBrulee"),
        ("Straße", "strasse"),
        ("Œuvre Complète", "oeuvreComplete"),
        ("Ærø Pass", "aeroPass"),
    ])
    func accentsAreFolded(_ text: String, _ expected: String) {
        #expect(SwiftIdentifier.lowerCamel(text, prefix: "product") == expected)
    }

    @Test func otherScriptsSeparateWords() {
        #expect(SwiftIdentifier.lowerCamel("コインの小袋", prefix: "product") == nil)
        #expect(SwiftIdentifier.lowerCamel("Pro 月額", prefix: "product") == "pro")
        #expect(SwiftIdentifier.lowerCamel("a × b", prefix: "product") == "aB")
        #expect(SwiftIdentifier.lowerCamel("", prefix: "product") == nil)
        #expect(SwiftIdentifier.lowerCamel("- (!) -", prefix: "product") == nil)
    }

    @Test func upperCamelCase() {
        #expect(SwiftIdentifier.upperCamel("rocket-racer", prefix: "Catalog") == "RocketRacer")
        #expect(SwiftIdentifier.upperCamel("daily-planet", prefix: "Catalog") == "DailyPlanet")
        #expect(SwiftIdentifier.upperCamel("3d-shop", prefix: "Catalog") == "Shop3d")
    }

    @Test func keywordsAreEscaped() {
        for keyword in ["default", "class", "in", "self", "import", "true", "nil", "repeat", "case", "init"] {
            #expect(SwiftIdentifier.escaped(keyword) == "`\(keyword)`")
        }
        for name in ["rocketCar", "type", "get", "some", "async", "rawValue"] {
            #expect(SwiftIdentifier.escaped(name) == name)
        }
    }

    @Test func wordsAreRunsOfLettersAndDigits() {
        #expect(SwiftIdentifier.words("Coins 500 (Pouch)") == ["Coins", "500", "Pouch"])
        #expect(SwiftIdentifier.words("pro.tier_2-b") == ["pro", "tier", "2", "b"])
        #expect(SwiftIdentifier.words("Café") == ["Cafe"])
        #expect(SwiftIdentifier.words("Writer's Toolkit") == ["Writers", "Toolkit"])
        #expect(SwiftIdentifier.words("Writer\u{2019}s Toolkit") == ["Writers", "Toolkit"])
    }
}
