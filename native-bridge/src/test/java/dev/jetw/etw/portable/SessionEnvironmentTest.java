package dev.jetw.etw.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The logfile header's time zone: the biases from the JVM's default zone, and its id as the names (not the short
 * display names, whose locale data cost ~20 ms of every start with the agent: BENCHMARKS.md §15).
 */
class SessionEnvironmentTest {

    private final TimeZone saved = TimeZone.getDefault();

    @AfterEach
    void restoreTheZone() {
        TimeZone.setDefault(saved);
    }

    @Test
    void aZoneWithDaylightTimeIsNamedByItsIdInBothNames() {
        TimeZone.setDefault(TimeZone.getTimeZone("Europe/Berlin"));
        SessionEnvironment e = new SessionEnvironment();
        assertEquals("Europe/Berlin", e.standardName);
        assertEquals("Europe/Berlin", e.daylightName);
        assertEquals(-60, e.timeZoneBias, "Windows: UTC = local + Bias");
        assertEquals(-60, e.daylightBias);
    }

    @Test
    void aZoneWithoutDaylightTimeHasNoDaylightName() {
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
        SessionEnvironment e = new SessionEnvironment();
        assertEquals("Asia/Tokyo", e.standardName);
        assertEquals("", e.daylightName);
        assertEquals(-540, e.timeZoneBias);
        assertEquals(0, e.daylightBias);
    }
}
