import Engine

/// The starter routes that make any preset react musically: the bass drives
/// the agents' speed, hits flash the agents' heads, pop the brightness and
/// kick the chaos, the top end opens the bloom, the sub breathes the
/// exposure. "Apply default wiring" restores exactly these.
public enum DefaultWiring {
    /// The default routes (depths in each target's 0…1 space).
    public static let routes: [Route] = [
        // Bass pushes every species forward: the network stretches on the groove.
        Route(source: .bass, target: .allSpecies(.moveSpeed), mode: .level, depth: 0.35, smoothing: 40),
        // Hits flash the agents themselves.
        Route(source: .full, target: .parameter(.headGlow), mode: .transient, depth: 0.5, curve: 0.8),
        // Hits pop the whole picture's brightness (ink density in paint presets):
        // the one response every preset shows at any size, even while the
        // level routes keep the network moving.
        Route(source: .full, target: .parameter(.exposure), mode: .transient, depth: 0.15),
        // Hits kick the agents' headings harder: the network shatters and re-knits
        // on the beat (acts in presets whose chaos interval is above 0).
        Route(source: .full, target: .parameter(.chaosStrength), mode: .transient, depth: 0.6),
        // Cymbals and air open the glow.
        Route(source: .brilliance, target: .parameter(.bloom), mode: .level, depth: 0.3, smoothing: 80),
        // The sub makes the whole picture breathe (exposure is on a log scale).
        Route(source: .sub, target: .parameter(.exposure), mode: .level, depth: 0.12, smoothing: 120),
        // Vocals and leads turn the agents more sharply.
        Route(source: .mid, target: .allSpecies(.turnSpeed), mode: .level, depth: 0.15, smoothing: 60),
    ]
}
