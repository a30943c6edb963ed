import Foundation
import StorekeeperServerLives
import StorekeeperStoreModel
import Testing

/// A random life is a function of its seed: the same seed gives the same steps, the same deliveries in the
/// same order and the same expectations (only the ECDSA signatures inside the bodies differ), so the seed a
/// failure prints replays it. And every life ends with a checkpoint of every app account, after which
/// nothing waits.
@Suite struct RandomLifeTests {
    /// Everything a driver sees of a life except the bodies' signatures.
    static func trace(of seed: UInt64, in world: LivesWorld) throws -> [String] {
        var life = world.life(seed: seed)
        var lines: [String] = []
        while let moment = try life.next() {
            lines.append(moment.happened)
            for event in moment.events {
                switch event {
                case .deliver(let delivery): lines.append("deliver \(delivery.line) to \(delivery.instance) as \(delivery.attempt)")
                case .serverDown: lines.append("down")
                case .serverUp: lines.append("up")
                case .checkpoint(let expectations): lines.append("checkpoint " + expectations.map { "\($0.account): \($0.entitlements)" }.joined(separator: "; "))
                case .spend(let spend): lines.append("spend \(spend)")
                }
            }
        }
        return lines
    }

    @Test(arguments: [1, 2, 3, 42, 1_000_003] as [UInt64])
    func theSameSeedGivesTheSameLife(seed: UInt64) throws {
        let world = try LivesWorld()
        let first = try Self.trace(of: seed, in: world)
        let second = try Self.trace(of: seed, in: world)
        #expect(first == second, "seed \(seed): replay \(LivesOptions(database: .sqlite).replayCommand(seed: seed))")
        #expect(first.count > 3)
    }

    @Test func everyLifeEndsWithACheckpointOfEveryAccountAfterWhichNothingWaits() throws {
        let world = try LivesWorld()
        for seed in UInt64(1)...40 {
            var life = world.life(seed: seed)
            var last: [LifeEvent] = []
            while let moment = try life.next() { last = moment.events }
            guard let checkpoint = last.lastIndex(where: { if case .checkpoint = $0 { true } else { false } }),
                  case .checkpoint(let expectations) = last[checkpoint]
            else {
                Issue.record("seed \(seed): the last step has no checkpoint")
                continue
            }
            #expect(Set(expectations.map(\.account)) == Set(life.people.map(\.account)), "seed \(seed)")
            #expect(!last[checkpoint...].contains { if case .deliver = $0 { true } else { false } }, "seed \(seed): a delivery after the last checkpoint")
            #expect(life.step == life.length + 1, "seed \(seed)")
        }
    }
}
