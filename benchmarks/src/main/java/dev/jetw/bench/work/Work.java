package dev.jetw.bench.work;

/**
 * The small method whose instrumented cost is measured: a few arithmetic operations, nothing the
 * JIT can fold away because the input varies per call and the result is consumed.
 * Lives in its own package so that the agent's include rule selects it and nothing else (not
 * "target": the repository ignores every directory of that name).
 */
public final class Work {

    private Work() {
    }

    public static int compute(int x) {
        int h = x * 0x9E3779B1;
        h ^= h >>> 15;
        h += x << 3;
        return h ^ (h >>> 7);
    }
}
