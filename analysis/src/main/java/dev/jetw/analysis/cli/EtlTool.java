package dev.jetw.analysis.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The .etl command-line tool: {@code ./jetw etl <command> [options] FILE...}
 * ({@code java -jar jetw-agent.jar etl ...}, or this class's main with the command first).
 *
 * <p>Exit status: 0 success; 1 a file could not be read (missing, not .etl, compressed) or had
 * corrupt buffers or damaged records (their events are skipped, the rest is printed); 2 usage error;
 * 3 a file is incomplete: truncated (the events of its intact buffers are printed, then the warning),
 * or, for summary, events lost per the logfile header or jetw START/END counts unequal. With several
 * files the worst status wins: 1 over 3 over 0.
 */
public final class EtlTool {

    public static final int OK = 0;
    public static final int BAD_FILE = 1;
    public static final int USAGE = 2;
    public static final int TRUNCATED = 3;
    /** The same status as {@link #TRUNCATED}: the trace is incomplete (events lost, or jetw calls unbalanced). */
    public static final int INCOMPLETE = TRUNCATED;

    /** How the tool is named when its caller does not say ({@link #run(String, String[], PrintStream, PrintStream)}). */
    static final String DEFAULT_INVOCATION = "jetw";

    /** The usage text for a user who runs the tool as {@code invocation etl ...} (e.g. "./jetw", "java -jar jetw-agent.jar"). */
    static String usageText(String invocation) {
        return "usage: " + invocation + " etl <command> [options] FILE..." + "\n" + USAGE_LINES;
    }

    /** One entry (or more) per command of {@link #COMMANDS}; EtlToolTest checks that none is missing. */
    private static final String USAGE_LINES = String.join("\n",
            "  summary [--json] FILE...               session, time span, buffers, events per provider/type/level, events lost",
            "  dump [--json] FILE...                  one line per event (--json: one JSON object per line)",
            "  tree [--slowest] [--why] FILE...       per-thread call trees of jetw's START/END events with durations",
            "                                         (--why: a 'why' line under each top-level call, see why)",
            "  methods [--json] [--sort KEY] [--top N] FILE...",
            "                                         per method: calls, total/self/mean ms, p50/p90/p99/max, exceptions",
            "                                         (KEY: total self calls mean p99 max exceptions)",
            "  why [--slowest N | --instance ID] [--json] FILE...",
            "                                         where a call's time went: traced children/self, thread states, disk I/O,",
            "                                         hard faults, JVM runtime events (default: the 3 slowest top-level calls;",
            "                                         with --from/--to: calls that start in the window)",
            "  chrome-trace [-o OUT.json] FILE...     Trace Event Format JSON (small traces) for Perfetto UI / chrome://tracing",
            "  perfetto FILE [OUT.pftrace]            Perfetto's protobuf trace (any size) for ui.perfetto.dev",
            "  hot-methods [-o OUT] FILE...           the methods adaptive exclusion excluded or gave a threshold, one line",
            "                                         each, for the agent option hotMethods=OUT (the next run starts there)",
            "every command: --thread TID (one thread), --from MS / --to MS (a window in ms after the session start),",
            "  --quiet (no progress line; there is none anyway when stderr is not a terminal)",
            "exit status: 0 ok, 1 unreadable or corrupt file, 2 usage error, 3 incomplete trace: truncated file, or"
                    + " (summary) events lost or unbalanced jetw START/END (intact events still shown)");

    /** The command table: every usage text (this tool's, the jar's, the launchers') is checked against it. */
    static final List<String> COMMANDS = java.util.Collections.unmodifiableList(java.util.Arrays.asList("summary", "dump",
            "tree", "methods", "why", "chrome-trace", "perfetto", "hot-methods"));

    private EtlTool() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** The names of the etl commands, in the order the usage text shows them (the jar's usage lists them by this). */
    public static List<String> commands() {
        return COMMANDS;
    }

    /** Runs one command; returns the exit status. Never calls System.exit. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(DEFAULT_INVOCATION, args, out, err);
    }

    /**
     * Runs one command for a user who started the tool as {@code invocation etl ...} (the jar's launcher
     * passes "./jetw" or "java -jar jetw-agent.jar"), which the usage text and its hints repeat.
     */
    public static int run(String invocation, String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println("jetw etl: no command given");
            err.println(usageText(invocation));
            return USAGE;
        }
        String command = args[0];
        if (command.equals("-h") || command.equals("--help") || command.equals("help")) {
            out.println(usageText(invocation));
            return OK;
        }
        if (!COMMANDS.contains(command)) {
            return usage(err, invocation, "unknown command '" + command + "' (expected "
                    + String.join(", ", COMMANDS.subList(0, COMMANDS.size() - 1)) + " or " + COMMANDS.get(COMMANDS.size() - 1) + ")");
        }
        CommandOptions o = new CommandOptions();
        WhyCommand.Options why = new WhyCommand.Options();
        List<Path> files = new ArrayList<>();
        String whyChoice = null; // --slowest or --instance, whichever came first
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--json") && (command.equals("summary") || command.equals("dump") || command.equals("methods")
                    || command.equals("why"))) {
                o.json = true;
            } else if (command.equals("why") && (a.equals("--slowest") || a.equals("--instance"))) {
                if (i + 1 >= args.length) {
                    return usage(err, invocation, a + " needs a value");
                }
                if (whyChoice != null && !whyChoice.equals(a)) {
                    return usage(err, invocation, whyChoice + " and " + a + " are alternatives: give one (the N slowest calls, or the call with that instance id)");
                }
                whyChoice = a;
                String problem = whyOption(why, a, args[++i]);
                if (problem != null) {
                    return usage(err, invocation, problem);
                }
            } else if (a.equals("--slowest") && command.equals("tree")) {
                o.slowest = true;
            } else if (a.equals("--why") && command.equals("tree")) {
                o.treeWhy = true;
            } else if (a.equals("--quiet")) {
                o.quiet = true;
            } else if (a.equals("--thread") || a.equals("--from") || a.equals("--to")
                    || (command.equals("methods") && (a.equals("--sort") || a.equals("--top")))
                    || (a.equals("-o") && (command.equals("chrome-trace") || command.equals("perfetto") || command.equals("hot-methods")))) {
                if (i + 1 >= args.length) {
                    return usage(err, invocation, a + " needs " + (a.equals("-o") ? "an output file" : "a value"));
                }
                String problem = option(o, a, args[++i]);
                if (problem != null) {
                    return usage(err, invocation, problem);
                }
            } else if (a.startsWith("-") && a.length() > 1) {
                return usage(err, invocation, "unknown option '" + a + "' for " + command);
            } else {
                files.add(Paths.get(a));
            }
        }
        if (command.equals("perfetto") && files.size() == 2 && o.output == null) {
            o.output = files.remove(1); // perfetto FILE OUT.pftrace
        }
        if (files.isEmpty()) {
            return usage(err, invocation, command + ": no FILE given");
        }
        if (o.output != null && files.size() > 1 && !command.equals("hot-methods")) { // hot-methods: one list of all FILEs
            return usage(err, invocation, command + ": an output file takes one FILE, " + files.size() + " given");
        }
        if (o.fromMs != null && o.toMs != null && o.fromMs >= o.toMs) {
            return usage(err, invocation, "--from " + o.fromMs + " must be before --to " + o.toMs);
        }
        switch (command) {
            case "summary":
                return SummaryCommand.run(files, o, out, err);
            case "dump":
                return DumpCommand.run(files, o, out, err);
            case "tree":
                return TreeCommand.run(files, o, out, err);
            case "methods":
                return MethodsCommand.run(files, o, out, err);
            case "why":
                return WhyCommand.run(files, why, o, out, err);
            case "perfetto":
                return PerfettoCommand.run(files, o, out, err);
            case "hot-methods":
                return HotMethodsCommand.run(files, o.output, out, err);
            default:
                return ChromeTraceCommand.run(files, o, out, err);
        }
    }

    /** Applies why's --slowest/--instance; returns what is wrong with the value, or null. */
    private static String whyOption(WhyCommand.Options o, String option, String value) {
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            return option + " '" + value + "' is not a number (a decimal integer)";
        }
        if (option.equals("--slowest")) {
            o.slowest = (int) Math.min(n, Integer.MAX_VALUE);
            return n >= 1 ? null : "--slowest " + value + ": allowed 1 or more";
        }
        o.instance = (int) n; // instance ids are u32
        return n >= 0 && n <= 0xFFFFFFFFL ? null : "--instance " + value + ": allowed 0 to 4294967295";
    }

    /** Applies a valued option; returns what is wrong with the value, or null. */
    private static String option(CommandOptions o, String option, String value) {
        try {
            switch (option) {
                case "-o":
                    o.output = Paths.get(value);
                    return null;
                case "--thread":
                    try {
                        o.thread = Integer.parseInt(value);
                        return null;
                    } catch (NumberFormatException e) {
                        return "--thread '" + value + "' is not a thread id (a decimal integer)";
                    }
                case "--sort":
                    if (!MethodsCommand.SORT_KEYS.contains(value)) {
                        return "--sort '" + value + "': allowed " + String.join(", ", MethodsCommand.SORT_KEYS);
                    }
                    o.sort = value;
                    return null;
                case "--top":
                    o.top = Integer.parseInt(value);
                    return o.top >= 1 ? null : "--top " + value + ": allowed 1 or more";
                case "--from":
                    o.fromMs = Double.parseDouble(value);
                    return o.fromMs >= 0 ? null : "--from " + value + ": allowed 0 or more (ms after the session start)";
                default:
                    o.toMs = Double.parseDouble(value);
                    return o.toMs > 0 ? null : "--to " + value + ": allowed more than 0 (ms after the session start)";
            }
        } catch (NumberFormatException e) {
            return option + " '" + value + "' is not a number";
        }
    }

    private static int usage(PrintStream err, String invocation, String problem) {
        err.println("jetw etl: " + problem + " (see: " + invocation + " etl --help)");
        return USAGE;
    }

    /** The exit status of two outcomes together: BAD_FILE over TRUNCATED over OK. */
    static int worse(int a, int b) {
        return rank(a) >= rank(b) ? a : b;
    }

    private static int rank(int status) {
        switch (status) {
            case BAD_FILE: return 3;
            case USAGE: return 4;
            case TRUNCATED: return 2;
            default: return 1;
        }
    }
}
