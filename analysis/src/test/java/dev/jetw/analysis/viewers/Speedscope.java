package dev.jetw.analysis.viewers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A file as speedscope shows it, from speedscope's own importer (npm package {@code speedscope}, its
 * browser bundle run under Node by {@code speedscope-import.cjs}): the profiles (one per thread of a
 * Trace Event file, named as its thread picker names them), their frames with total and self weights,
 * and what the importer said (which format it took the file for; its warnings and errors).
 * Callers gate on {@link ViewerTools#requireSpeedscope} first.
 */
public final class Speedscope {

    /** A frame of one profile: its name as speedscope shows it, its weights (µs for a Trace Event file). */
    public static final class Frame {
        public final String name;
        public final double totalWeight;
        public final double selfWeight;

        Frame(String name, double totalWeight, double selfWeight) {
            this.name = name;
            this.totalWeight = totalWeight;
            this.selfWeight = selfWeight;
        }

        @Override
        public String toString() {
            return name + " total " + totalWeight + " self " + selfWeight;
        }
    }

    /** A profile: one thread (track) of the file. */
    public static final class Profile {
        public final String name;
        public final double totalWeight;
        public final String unit;
        /** Frames by name (speedscope's frame name is its key: two frames never share a name). */
        public final Map<String, Frame> frames = new LinkedHashMap<>();

        Profile(String name, double totalWeight, String unit) {
            this.name = name;
            this.totalWeight = totalWeight;
            this.unit = unit;
        }

        @Override
        public String toString() {
            return name + " (" + totalWeight + " " + unit + "): " + frames.values();
        }
    }

    /** What the importer logged (e.g. "Importing as Trace Event Format profile"). */
    public final List<String> logs = new ArrayList<>();
    public final List<String> warnings = new ArrayList<>();
    public final List<String> errors = new ArrayList<>();
    public final List<Profile> profiles = new ArrayList<>();
    /** False when the importer recognised no format in the file (the UI then says it cannot import it). */
    public boolean imported = true;

    private Speedscope() {
    }

    /** Imports {@code file} as a user who opens it in speedscope; fails when the importer could not run at all. */
    public static Speedscope open(Path file) throws IOException {
        Path dir = Files.createTempDirectory("jetw-speedscope");
        try {
            Path script = ViewerTools.resource("speedscope-import.cjs", dir);
            ViewerTools.Ran ran = ViewerTools.run(List.of("node", script.toString(), ViewerTools.speedscopeBundle().toString(),
                    file.toAbsolutePath().toString()), 300);
            Speedscope s = parse(ran.stdout);
            if (ran.exit != 0) {
                throw new AssertionError("speedscope's importer failed on " + file + ": " + ran);
            }
            return s;
        } finally {
            Files.deleteIfExists(dir.resolve("speedscope-import.cjs"));
            Files.deleteIfExists(dir);
        }
    }

    private static Speedscope parse(String out) {
        Speedscope s = new Speedscope();
        Profile profile = null;
        for (String line : out.split("\n")) {
            int space = line.indexOf(' ');
            if (space < 0) {
                continue;
            }
            String kind = line.substring(0, space);
            String rest = line.substring(space + 1);
            String[] f = rest.split("\t");
            switch (kind) {
                case "log" -> s.logs.add(rest);
                case "warn" -> s.warnings.add(rest);
                case "error" -> s.errors.add(rest);
                case "result" -> s.imported = !rest.equals("none");
                case "profile" -> {
                    profile = new Profile(f[0], Double.parseDouble(f[1]), f[2]);
                    s.profiles.add(profile);
                }
                case "frame" -> {
                    Frame frame = new Frame(f[0], Double.parseDouble(f[1]), Double.parseDouble(f[2]));
                    if (profile == null || profile.frames.put(frame.name, frame) != null) {
                        throw new AssertionError("speedscope-import.cjs: a frame outside a profile or twice: " + line);
                    }
                }
                default -> throw new AssertionError("speedscope-import.cjs printed an unknown line: " + line);
            }
        }
        return s;
    }

    /** The profile named {@code name}; fails listing the names there are. */
    public Profile profile(String name) {
        for (Profile p : profiles) {
            if (p.name.equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no speedscope profile " + name + " in " + profiles.stream().map(p -> p.name).toList());
    }
}
