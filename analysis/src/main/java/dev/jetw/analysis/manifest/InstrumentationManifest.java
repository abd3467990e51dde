package dev.jetw.analysis.manifest;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** The events of one or more instrumentation manifests, by provider GUID, event id and version. */
public final class InstrumentationManifest {

    private final Map<UUID, String> providers = new HashMap<>();
    private final Map<String, EventDefinition> events = new HashMap<>();

    void addProvider(UUID guid, String name) {
        providers.put(guid, name);
    }

    void addEvent(UUID provider, EventDefinition e) {
        events.put(key(provider, e.id, e.version), e);
    }

    /** The provider's name, or null when no manifest read here declares it. */
    public String providerName(UUID guid) {
        return providers.get(guid);
    }

    /** The number of providers declared. */
    public int providerCount() {
        return providers.size();
    }

    /** The number of events declared. */
    public int eventCount() {
        return events.size();
    }

    EventDefinition event(UUID provider, int id, int version) {
        return events.get(key(provider, id, version));
    }

    /** The definition of another version of the same event (its name still applies), or null. */
    EventDefinition anyVersion(UUID provider, int id) {
        EventDefinition found = null;
        for (int v = 0; v < 256 && found == null; v++) {
            found = events.get(key(provider, id, v));
        }
        return found;
    }

    private static String key(UUID provider, int id, int version) {
        return provider + "/" + id + "/" + version;
    }
}
