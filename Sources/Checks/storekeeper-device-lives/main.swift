// Placeholder until the command lands (issue 25).
print("storekeeper-device-lives: not built yet")
