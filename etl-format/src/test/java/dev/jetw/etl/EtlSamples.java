package dev.jetw.etl;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/** The Windows-written sample files (this module's test resources, etl-samples/), and a helper to read a whole file. */
final class EtlSamples {

    static final String LXCORE = "lxcore_kernel.etl";
    static final String AMSI = "AMSITrace.etl";
    static final String PRIMITIVE = "primitive-types.etl";
    static final String CLR_RUNDOWN = "PerfViewData.clrRundown.etl";

    private EtlSamples() {
    }

    static Path dir() {
        String samples = System.getProperty("jetw.samples.dir");
        if (samples == null) {
            throw new IllegalStateException("system property jetw.samples.dir is not set (surefire sets it)");
        }
        return Paths.get(samples);
    }

    static Path sample(String name) {
        return dir().resolve(name);
    }

    /** Every record of an open reader, in reader order. */
    static List<EtlRecord> readAll(EtlReader reader) throws IOException {
        List<EtlRecord> out = new ArrayList<>();
        for (EtlRecord r = reader.next(); r != null; r = reader.next()) {
            out.add(r);
        }
        return out;
    }

    static List<EtlRecord> readAll(Path file) throws IOException {
        try (EtlReader r = EtlReader.open(file)) {
            return readAll(r);
        }
    }
}
