package dev.jetw.bench.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** The real workload's quick check (its measurement runs on demand, BENCHMARKS.md): two rounds, one checksum. */
class ShopAppSmokeTest {

    @Test
    void roundsAreDeterministicAcrossDatabases() throws Exception {
        long first = new ShopApp().rounds(2);
        long second = new ShopApp().round();
        assertEquals(first, second, "a fresh database gives the same checksum");
        assertNotEquals(0L, first);
    }
}
