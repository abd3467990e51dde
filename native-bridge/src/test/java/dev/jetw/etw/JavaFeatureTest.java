package dev.jetw.etw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JavaFeatureTest {

    @Test
    void readsTheFeatureOfEverySpecificationVersionForm() {
        assertEquals(8, JavaFeature.of("1.8"));
        assertEquals(17, JavaFeature.of("17"));
        assertEquals(17, JavaFeature.of("17.0.2"));
        assertEquals(25, JavaFeature.of("25"));
        assertEquals(0, JavaFeature.of(""));
        assertEquals(0, JavaFeature.of("seventeen"));
    }

    @Test
    void theRunningJvmsIsItsRuntimeVersion() {
        assertEquals(Runtime.version().feature(), JavaFeature.current());
    }
}
