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

    /** Per zone: its id, the daylight name (empty without daylight time), Bias and DaylightBias (Windows: UTC = local + Bias). */
    @Test
    void theZoneIsNamedByItsIdAndTheDaylightNameOnlyWithDaylightTime() {
        Object[][] zones = {{"Europe/Berlin", "Europe/Berlin", -60, -60}, {"Asia/Tokyo", "", -540, 0}, {"UTC", "", 0, 0}};
        for (Object[] z : zones) {
            TimeZone.setDefault(TimeZone.getTimeZone((String) z[0]));
            SessionEnvironment e = new SessionEnvironment();
            assertEquals(z[0], e.standardName);
            assertEquals(z[1], e.daylightName, z[0] + "'s daylight name");
            assertEquals(z[2], e.timeZoneBias, z[0] + "'s bias");
            assertEquals(z[3], e.daylightBias, z[0] + "'s daylight bias");
        }
    }
}
