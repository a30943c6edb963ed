// Placeholder until the suites land (issue 25).
