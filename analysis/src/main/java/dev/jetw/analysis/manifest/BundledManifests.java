package dev.jetw.analysis.manifest;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * The manifests jetw carries: the .NET runtime's ClrEtwAll.man (providers Microsoft-Windows-DotNETRuntime,
 * -Rundown, -Stress, -Private), unchanged, as a resource beside this class with its MIT licence
 * (docs/manifest-events.md says where it comes from and why it is bundled). Read once, on first use.
 */
final class BundledManifests {

    static final String CLR = "ClrEtwAll.man";

    /**
     * The providers ClrEtwAll.man declares, known without reading it: the manifest (half a second to parse) is
     * read only when a trace holds an event of one of them. BundledManifestsTest checks the list against the file.
     */
    static final Set<UUID> PROVIDERS = Collections.unmodifiableSet(new HashSet<>(Arrays.asList(
            UUID.fromString("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"), // Microsoft-Windows-DotNETRuntime
            UUID.fromString("a669021c-c450-4609-a035-5af59af4df18"), // Microsoft-Windows-DotNETRuntimeRundown
            UUID.fromString("cc2bcbba-16b6-4cf3-8990-d74c2e8af500"), // Microsoft-Windows-DotNETRuntimeStress
            UUID.fromString("763fd754-7086-4dfe-95eb-c01a46faf4ca")))); // Microsoft-Windows-DotNETRuntimePrivate

    private BundledManifests() {
    }

    private static final class Holder {
        static final InstrumentationManifest MANIFEST = load();
    }

    static InstrumentationManifest get() {
        return Holder.MANIFEST;
    }

    private static InstrumentationManifest load() {
        InstrumentationManifest m = new InstrumentationManifest();
        try (InputStream in = BundledManifests.class.getResourceAsStream(CLR)) {
            if (in == null) {
                throw new IllegalStateException(CLR + " is missing beside " + BundledManifests.class.getName());
            }
            ManifestReader.read(in, m);
        } catch (IOException e) {
            throw new IllegalStateException("the bundled " + CLR + " cannot be read: " + e.getMessage(), e);
        }
        return m;
    }
}
