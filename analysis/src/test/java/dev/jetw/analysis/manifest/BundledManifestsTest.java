package dev.jetw.analysis.manifest;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bundled manifest reads, and the provider list that spares reading it for other traces is its own. */
class BundledManifestsTest {

    @Test
    void theDeclaredProvidersAreTheManifestsProviders() {
        InstrumentationManifest m = BundledManifests.get();
        Set<UUID> named = new HashSet<>();
        for (UUID p : BundledManifests.PROVIDERS) {
            assertNotNull(m.providerName(p), p + " is not in " + BundledManifests.CLR);
            named.add(p);
        }
        assertEquals(4, named.size());
        assertEquals(named.size(), m.providerCount(), "every provider of the manifest is in the list");
        assertEquals("Microsoft-Windows-DotNETRuntime", m.providerName(UUID.fromString("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4")));
        assertTrue(m.eventCount() > 300, "events: " + m.eventCount());
        assertTrue(BundledManifestsTest.class.getResource("/dev/jetw/analysis/manifest/ClrEtwAll.man.LICENSE.txt") != null,
                "the licence travels with the manifest");
    }
}
