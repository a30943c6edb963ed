// storekeeper-queue-drill: proves the transaction queue's exactly-once delivery by killing it. `run` is one
// launch of an app over a state folder; `supervise` kills launches with SIGKILL again and again and compares
// the result with a run that never crashed. See `Command.usage`.

import Foundation

let command: Command
do {
    command = try Command(parsing: CommandLine.arguments.dropFirst())
} catch {
    StandardError.print("storekeeper-queue-drill: \(error)\n")
    StandardError.print(Command.usage)
    exit(2)
}

switch command {
case .help:
    print(Command.usage)
    exit(0)
case .run(let options):
    do {
        exit(try await RunCommand(options: options).execute().rawValue)
    } catch {
        StandardError.print("storekeeper-queue-drill: run: \(error)")
        exit(RunCommand.Status.failed.rawValue)
    }
case .journal(let options):
    do {
        exit(try JournalCasesCommand(options: options).execute() ? 0 : 1)
    } catch {
        StandardError.print("storekeeper-queue-drill: journal: \(error)")
        exit(1)
    }
case .supervise(let options):
    do {
        exit(try SuperviseCommand(options: options).execute() ? 0 : 1)
    } catch {
        StandardError.print("storekeeper-queue-drill: supervise: \(error)")
        exit(1)
    }
}
