package dev.jetw.analysis.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The table of the etl commands and of the options each accepts. {@link EtlTool}'s parser accepts an option
 * for a command only through {@link #option}, and every usage text (the overview, {@code etl COMMAND --help})
 * is printed from the same rows, so that what the help says and what the parser takes cannot disagree.
 */
final class EtlCommands {

    /** The columns where the descriptions start: of the commands in the overview, of the options in a command's help. */
    private static final int DESCRIPTION_COLUMN = 41;
    private static final int OPTION_DESCRIPTION_COLUMN = 20;

    /** One command: its name, its operands, and what it does (one line of the usage text per element). */
    static final class Command {
        final String name;
        final String operands;
        final List<String> description;

        private Command(String name, String operands, String... description) {
            this.name = name;
            this.operands = operands;
            this.description = Collections.unmodifiableList(Arrays.asList(description));
        }
    }

    /**
     * One option: its name, the placeholder of its value (null for a flag), what it does, and its commands (none: every
     * command but those it leaves out).
     */
    static final class Option {
        final String name;
        final String value;
        final String description;
        private final List<String> commands;
        private final List<String> leftOut;

        private Option(String name, String value, String description, String... commands) {
            this(name, value, description, Collections.<String>emptyList(), commands);
        }

        private Option(String name, String value, String description, List<String> leftOut, String... commands) {
            this.name = name;
            this.value = value;
            this.description = leftOut.isEmpty() ? description : description + " (not " + String.join(", ", leftOut) + ")";
            this.commands = Arrays.asList(commands);
            this.leftOut = leftOut;
        }

        boolean takesValue() {
            return value != null;
        }

        /** True for --thread, --from, --to, --quiet: the options of every command (or of all but a few). */
        boolean common() {
            return commands.isEmpty();
        }

        boolean appliesTo(String command) {
            return common() ? !leftOut.contains(command) : commands.contains(command);
        }

        /** "--top N", "--json". */
        String synopsis() {
            return value == null ? name : name + " " + value;
        }
    }

    static final List<Command> COMMANDS = Collections.unmodifiableList(Arrays.asList(
            new Command("summary", "FILE...", "session, time span, buffers, events per provider/type/level, events lost"),
            new Command("dump", "FILE...", "one line per event (--json: one JSON object per line)"),
            new Command("tree", "FILE...", "per-thread call trees of jetw's START/END events with durations",
                    "(--why: a 'why' line under each top-level call, see why)"),
            new Command("methods", "FILE...", "per method: calls, total/self/mean ms, p50/p90/p99/max, exceptions",
                    "(KEY: " + String.join(" ", MethodsCommand.SORT_KEYS) + ")"),
            new Command("why", "FILE...", "where a call's time went: traced children/self, thread states, disk I/O,",
                    "hard faults, JVM runtime events (default: the 3 slowest top-level calls;",
                    "with --from/--to: calls that start in the window)"),
            new Command("chrome-trace", "FILE...", "Trace Event Format JSON (small traces) for Perfetto UI / chrome://tracing"),
            new Command("perfetto", "FILE [OUT.pftrace]", "Perfetto's protobuf trace (any size) for ui.perfetto.dev"),
            new Command("hot-methods", "FILE...", "the methods adaptive exclusion excluded or gave a threshold, one line",
                    "each, for the agent option hotMethods=OUT (the next run starts there)")));

    /** The commands --thread, --from and --to leave out. */
    private static final List<String> UNFILTERED_COMMANDS = Collections.singletonList("hot-methods");

    static final List<Option> OPTIONS = Collections.unmodifiableList(Arrays.asList(
            new Option("--json", null, "JSON instead of text (dump: one JSON object per event, one per line)",
                    "summary", "dump", "methods", "why"),
            new Option("--slowest", null, "only the longest finished top-level call of the file (or of --thread), with its subtree", "tree"),
            new Option("--why", null, "a 'why' line under each top-level call (where its time went, see why)", "tree"),
            new Option("--sort", "KEY", "sort by KEY: " + String.join(", ", MethodsCommand.SORT_KEYS) + " (default total)", "methods"),
            new Option("--top", "N", "the first N methods only", "methods"),
            new Option("--slowest", "N", "the N slowest top-level calls (default 3); not with --instance", "why"),
            new Option("--instance", "ID", "every finished call with that instance id; not with --slowest", "why"),
            new Option("-o", "OUT.json", "the output file (default: FILE with .etl replaced by .trace.json)", "chrome-trace"),
            new Option("-o", "OUT.pftrace", "the output file, as OUT.pftrace after FILE (default: FILE with .etl replaced by .pftrace)",
                    "perfetto"),
            new Option("-o", "OUT", "write the list to OUT (replacing it) and print its path, instead of printing the list",
                    "hot-methods"),
            // hot-methods lists every decision of the run: a thread or a window would cut the list hotMethods= reads.
            new Option("--thread", "TID", "one thread (its header thread id)", UNFILTERED_COMMANDS),
            new Option("--from", "MS", "a window from MS ms after the session start", UNFILTERED_COMMANDS),
            new Option("--to", "MS", "a window up to MS ms after the session start", UNFILTERED_COMMANDS),
            new Option("--quiet", null, "no progress line (there is none anyway when stderr is not a terminal)")));

    static final String EXIT_STATUS = "exit status: 0 ok, 1 unreadable or corrupt file, 2 usage error, 3 incomplete trace: truncated file, or"
            + " (summary) events lost or unbalanced jetw START/END (intact events still shown)";

    private EtlCommands() {
    }

    static List<String> names() {
        List<String> names = new ArrayList<>();
        for (Command c : COMMANDS) {
            names.add(c.name);
        }
        return Collections.unmodifiableList(names);
    }

    static Command command(String name) {
        for (Command c : COMMANDS) {
            if (c.name.equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** The option {@code name} as {@code command} takes it, or null when the command has no such option. */
    static Option option(String command, String name) {
        for (Option o : OPTIONS) {
            if (o.name.equals(name) && o.appliesTo(command)) {
                return o;
            }
        }
        return null;
    }

    /** The usage text of every command: one entry per command, then the options of every command and the exit status. */
    static String overview(String invocation) {
        List<String> lines = new ArrayList<>();
        lines.add("usage: " + invocation + " etl <command> [options] FILE...");
        for (Command c : COMMANDS) {
            describe(lines, "  " + synopsis(c), c.description, DESCRIPTION_COLUMN);
        }
        lines.add("every command (" + invocation + " etl COMMAND --help: its own options):");
        for (Option o : OPTIONS) {
            if (o.common()) {
                describe(lines, "  " + o.synopsis(), Collections.singletonList(o.description), DESCRIPTION_COLUMN);
            }
        }
        lines.add(EXIT_STATUS);
        return String.join("\n", lines);
    }

    /** {@code etl COMMAND --help}: the command's usage line, what it does, and every option it accepts. */
    static String help(String invocation, Command c) {
        List<String> lines = new ArrayList<>();
        StringBuilder common = new StringBuilder();
        for (Option o : OPTIONS) {
            if (o.common() && o.appliesTo(c.name)) {
                common.append('[').append(o.synopsis()).append("] ");
            }
        }
        lines.add("usage: " + invocation + " etl " + synopsis(c).replace(c.operands, common + c.operands));
        for (String d : c.description) {
            lines.add("  " + d);
        }
        lines.add("options:");
        for (Option o : OPTIONS) {
            if (o.appliesTo(c.name)) {
                describe(lines, "  " + o.synopsis(), Collections.singletonList(o.description), OPTION_DESCRIPTION_COLUMN);
            }
        }
        lines.add(EXIT_STATUS);
        return String.join("\n", lines);
    }

    /** "tree [--slowest] [--why] FILE...": the command with the options only it (and a few others) take. */
    private static String synopsis(Command c) {
        StringBuilder s = new StringBuilder(c.name);
        for (Option o : OPTIONS) {
            if (!o.common() && o.appliesTo(c.name)) {
                s.append(" [").append(o.synopsis()).append(']');
            }
        }
        return s.append(' ').append(c.operands).toString();
    }

    /** The head, then the description from {@code column} on (on the head's line when it fits). */
    private static void describe(List<String> lines, String head, List<String> description, int column) {
        String indent = String.join("", Collections.nCopies(column, " "));
        int first = 0;
        if (head.length() < column - 1) {
            lines.add(head + indent.substring(head.length()) + description.get(0));
            first = 1;
        } else {
            lines.add(head);
        }
        for (int i = first; i < description.size(); i++) {
            lines.add(indent + description.get(i));
        }
    }
}
