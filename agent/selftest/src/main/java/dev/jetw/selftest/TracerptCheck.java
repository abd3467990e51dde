package dev.jetw.selftest;

import dev.jetw.agent.core.MofSchema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Decodes a jetw trace with Windows' in-box tools: {@code mofcomp} publishes the schema of
 * {@code jetw mof} (needs an elevated administrator), then {@code tracerpt FILE -of XML} renders the
 * events. jetw's events are decoded by name when every MethodCall event carries a property named
 * MethodId, and every END one named ExceptionClass: those names exist only in jetw's MOF.
 */
final class TracerptCheck {

    static final long TOOL_TIMEOUT_SECONDS = 30;

    private TracerptCheck() {
    }

    /** Publishes the MOF and renders {@code etl}; returns the XML text. */
    static String render(Path etl, Path dir, List<String> facts) throws IOException, InterruptedException {
        Path mof = dir.resolve("jetw.mof");
        Files.write(mof, MofSchema.generate().getBytes(StandardCharsets.UTF_8));
        run(facts, dir.resolve("mofcomp.log"), "mofcomp", mof.toString());
        Path xml = dir.resolve("tracerpt.xml");
        run(facts, dir.resolve("tracerpt.log"), "tracerpt", etl.toString(), "-o", xml.toString(), "-of", "XML", "-y");
        return new String(Files.readAllBytes(xml), xmlCharset(Files.readAllBytes(xml)));
    }

    /** tracerpt writes UTF-16 with a byte-order mark on some versions, UTF-8 on others. */
    static java.nio.charset.Charset xmlCharset(byte[] bytes) {
        if (bytes.length >= 2 && ((bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE) || (bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF))) {
            return StandardCharsets.UTF_16;
        }
        return StandardCharsets.UTF_8;
    }

    /** Problems with the rendering: empty when jetw's events were decoded by name. */
    static List<String> judge(String xml, int methodCallEvents, int endEvents, List<String> facts) {
        int methodIds = count(xml, "Name=\"MethodId\"");
        int exceptionClasses = count(xml, "Name=\"ExceptionClass\"");
        facts.add("tracerpt XML: " + methodIds + " properties named MethodId, " + exceptionClasses + " named ExceptionClass");
        List<String> problems = new ArrayList<>();
        if (methodIds != methodCallEvents) {
            problems.add("tracerpt decoded " + methodIds + " MethodId properties, the trace holds " + methodCallEvents
                    + " MethodCall events (see tracerpt.xml: did mofcomp publish the schema?)");
        }
        if (exceptionClasses != endEvents) {
            problems.add("tracerpt decoded " + exceptionClasses + " ExceptionClass properties, the trace holds " + endEvents + " END events");
        }
        return problems;
    }

    static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + what.length())) {
            n++;
        }
        return n;
    }

    private static void run(List<String> facts, Path log, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(TOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(command[0] + " did not finish within " + TOOL_TIMEOUT_SECONDS + " s");
        }
        facts.add(String.join(" ", Arrays.asList(command)) + " -> exit " + p.exitValue() + " (output in " + log + ")");
        if (p.exitValue() != 0) {
            throw new IOException(command[0] + " failed with exit code " + p.exitValue() + "; its output is in " + log);
        }
    }
}
