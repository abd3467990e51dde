package dev.jetw.agent.launcher;

import dev.jetw.bootstrap.OptionTokenizer;

/**
 * The two option keys the entry code itself must understand, read from the agent's option string
 * without validating anything else (the core owns every other option and all validation):
 * {@code command} (status, detach; absent or "attach" for a plain attach or -javaagent) and {@code out} (the file the
 * attach tool reads the agent's reply from).
 */
final class ControlOptions {

    final String command;
    final String out;

    private ControlOptions(String command, String out) {
        this.command = command;
        this.out = out;
    }

    /** Read with the core's own tokenizer ({@link OptionTokenizer}, on the boot class path), leniently; the last entry wins. */
    static ControlOptions of(String options) {
        String command = null;
        String out = null;
        for (String[] kv : OptionTokenizer.tokenizeLeniently(options)) {
            if (kv[0].equals("command")) {
                command = kv[1];
            } else if (kv[0].equals("out")) {
                out = kv[1];
            }
        }
        return new ControlOptions(command, out);
    }

    /** The attach tool's load: open the control channel only. */
    boolean isListen() {
        return "listen".equals(command);
    }

    /** A command that queries or stops an existing session, rather than starting one. */
    boolean isSessionCommand() {
        return "status".equals(command) || "detach".equals(command) || "dump".equals(command);
    }
}
