package dev.jetw.etw.portable.linux;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One tracefs instance (instances/NAME): its own ring buffers, clock, event switches and pid filter, so the
 * global buffer and other tools' instances are never touched. Settings are plain writes to its files; a
 * refused write throws an IOException naming the file and the value (the kernel says only EINVAL).
 */
final class TraceInstance {

    private final File root;
    private final String name;
    private final File dir;

    private TraceInstance(File root, String name) {
        this.root = root;
        this.name = name;
        this.dir = new File(root, "instances/" + name);
    }

    /** mkdir instances/NAME: the kernel creates the instance with its files (tracing on, no event enabled). */
    public static TraceInstance create(File tracefsRoot, String name) throws IOException {
        TraceInstance t = new TraceInstance(tracefsRoot, name);
        Files.createDirectory(t.dir.toPath());
        return t;
    }

    /** An existing instance (for the sweeper). */
    public static TraceInstance existing(File tracefsRoot, String name) {
        return new TraceInstance(tracefsRoot, name);
    }

    public String name() {
        return name;
    }

    public File dir() {
        return dir;
    }

    public File file(String rel) {
        return new File(dir, rel);
    }

    /** Writes {@code value} to the file (truncating: set_event_pid is replaced, not added to). */
    public void write(String rel, String value) throws IOException {
        write(rel, value, false);
    }

    /** Appends (O_APPEND): set_event_pid keeps the pids it has and adds these. */
    public void append(String rel, String value) throws IOException {
        write(rel, value, true);
    }

    private void write(String rel, String value, boolean append) throws IOException {
        FileOutputStream out = new FileOutputStream(file(rel), append);
        try {
            out.write(value.getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new IOException("tracefs refused " + name + "/" + rel + " <- \"" + value.trim() + "\": "
                    + e.getMessage(), e);
        } finally {
            out.close();
        }
    }

    public String read(String rel) throws IOException {
        return TextFiles.read(file(rel));
    }

    /** Selects the trace clock and checks it took ("[mono]" in trace_clock). */
    public void setClock(String clock) throws IOException {
        String offered = read("trace_clock");
        if (!(" " + offered.replace("[", "").replace("]", "").trim() + " ").contains(" " + clock + " ")) {
            throw new IOException("trace clock " + clock + " not offered: " + offered.trim());
        }
        write("trace_clock", clock);
        if (!read("trace_clock").contains("[" + clock + "]")) {
            throw new IOException("trace clock " + clock + " not selected: " + read("trace_clock").trim());
        }
    }

    public void setBufferSizeKb(int kbPerCpu) throws IOException {
        write("buffer_size_kb", Integer.toString(kbPerCpu));
    }

    public void setOption(String option, boolean on) throws IOException {
        write("options/" + option, on ? "1" : "0");
    }

    public void enableEvent(String system, String event, boolean on) throws IOException {
        write("events/" + system + "/" + event + "/enable", on ? "1" : "0");
    }

    public boolean hasEvent(String system, String event) {
        return file("events/" + system + "/" + event + "/format").isFile();
    }

    public void tracingOn(boolean on) throws IOException {
        write("tracing_on", on ? "1" : "0");
    }

    /** Replaces set_event_pid with these tids. */
    public void setPids(Collection<Integer> tids) throws IOException {
        write("set_event_pid", join(tids));
    }

    /** Adds tids to set_event_pid. */
    public void addPids(Collection<Integer> tids) throws IOException {
        if (!tids.isEmpty()) {
            append("set_event_pid", join(tids));
        }
    }

    public List<Integer> pids() throws IOException {
        List<Integer> out = new ArrayList<Integer>();
        for (String s : read("set_event_pid").split("\\s+")) {
            if (!s.isEmpty()) {
                out.add(Integer.valueOf(s));
            }
        }
        return out;
    }

    /** The CPUs that have a per_cpu/cpuN directory, ascending. */
    public List<Integer> cpus() {
        List<Integer> out = new ArrayList<Integer>();
        String[] names = file("per_cpu").list();
        if (names != null) {
            for (String n : names) {
                if (n.startsWith("cpu")) {
                    out.add(Integer.valueOf(n.substring(3)));
                }
            }
        }
        java.util.Collections.sort(out);
        return out;
    }

    private static String join(Collection<Integer> tids) {
        StringBuilder b = new StringBuilder();
        for (Integer t : tids) {
            b.append(t).append(' ');
        }
        return b.append('\n').toString();
    }

    /**
     * Stops recording and removes the instance. Every file of it must be closed first: rmdir answers EBUSY
     * while a reader holds trace_pipe_raw open. Events are switched off before rmdir (rmdir does that too, but
     * a failed rmdir then leaves a quiet instance behind, not one that keeps filling its buffers). Retries
     * EBUSY for up to {@code waitMillis}. Returns false when the instance is still there.
     */
    public boolean remove(long waitMillis) {
        try {
            tracingOn(false);
            write("events/enable", "0");
        } catch (IOException e) {
            // already gone, or half-made: rmdir decides
        }
        long deadline = System.nanoTime() + waitMillis * 1_000_000L;
        while (true) {
            try {
                Files.delete(dir.toPath());
                return true;
            } catch (NoSuchFileException e) {
                return true;
            } catch (FileSystemException e) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
            } catch (IOException e) {
                return false;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return !dir.exists();
            }
        }
    }

    public File root() {
        return root;
    }

    @Override
    public String toString() {
        return dir.toString();
    }
}
