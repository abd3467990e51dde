package dev.jetw.analysis.manifest;

import java.io.IOException;
import java.io.InputStream;

/**
 * The manifests jetw carries: the .NET runtime's ClrEtwAll.man (providers Microsoft-Windows-DotNETRuntime,
 * -Rundown, -Stress, -Private), unchanged, as a resource beside this class with its MIT licence
 * (docs/manifest-events.md says where it comes from and why it is bundled). Read once, on first use.
 */
final class BundledManifests {

    static final String CLR = "ClrEtwAll.man";

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
