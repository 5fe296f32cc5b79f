import Testing

/// The suites whose test process opens JACK clients of its own (virtual
/// controllers on a private server). libjack2 keeps the server it talks to
/// in process-wide globals (the graph, the engine, the semaphore table by
/// client number), so clients of two private servers alive at once in this
/// process cross wires: MIDI stopped flowing both ways and libjack once
/// crashed the test process. Nested here (`extension JackClientSuites`),
/// they run one after another; their windows stay separate processes.
@Suite(.serialized) enum JackClientSuites {}
