// The runtime's public API speaks the server contract (a response's error body, the paths a
// step sends), so an app that imports the runtime reads the contract's types without a second import.
@_exported import StorekeeperContract
