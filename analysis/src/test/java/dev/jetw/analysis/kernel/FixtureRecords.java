package dev.jetw.analysis.kernel;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Writes a built trace to a file and reads its records back through the reader, as the decoders' tests need. */
public final class FixtureRecords {

    private FixtureRecords() {
    }

    /** The records of {@code b} but the logfile header, read from {@code dir}/fixture.etl; the reader must see no problem. */
    public static List<EtlRecord> read(EtlFixtureBuilder b, Path dir) throws IOException {
        Path f = dir.resolve("fixture.etl");
        Files.write(f, b.build());
        List<EtlRecord> out = new ArrayList<>();
        try (EtlReader r = EtlReader.open(f)) {
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                if (!e.isLogfileHeader()) {
                    out.add(e);
                }
            }
            assertTrue(r.problems().isEmpty(), r.problems().toString());
        }
        return out;
    }

    /** The same, each record's kernel view. */
    public static List<KernelEvent> kernelEvents(EtlFixtureBuilder b, Path dir) throws IOException {
        List<KernelEvent> out = new ArrayList<>();
        for (EtlRecord r : read(b, dir)) {
            out.add(KernelDecoder.decode(r));
        }
        return out;
    }
}
