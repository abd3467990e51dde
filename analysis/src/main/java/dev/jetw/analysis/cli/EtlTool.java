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
        return EtlCommands.overview(invocation);
    }

    /** The command table: every usage text (this tool's, the jar's, the launchers') is checked against it. */
    static final List<String> COMMANDS = EtlCommands.names();

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
        if (asksForHelp(args)) {
            out.println(EtlCommands.help(invocation, EtlCommands.command(command)));
            return OK;
        }
        CommandOptions o = new CommandOptions();
        WhyCommand.Options why = new WhyCommand.Options();
        List<Path> files = new ArrayList<>();
        String whyChoice = null; // --slowest or --instance, whichever came first
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            EtlCommands.Option option = EtlCommands.option(command, a);
            if (option == null) {
                if (a.startsWith("-") && a.length() > 1) {
                    return usage(err, invocation, "unknown option '" + a + "' for " + command, command);
                }
                files.add(Paths.get(a));
                continue;
            }
            if (!option.takesValue()) {
                flag(o, a);
                continue;
            }
            if (i + 1 >= args.length) {
                return usage(err, invocation, a + " needs " + (a.equals("-o") ? "an output file" : "a value"), command);
            }
            String value = args[++i];
            String problem;
            if (command.equals("why") && (a.equals("--slowest") || a.equals("--instance"))) {
                if (whyChoice != null && !whyChoice.equals(a)) {
                    return usage(err, invocation, whyChoice + " and " + a + " are alternatives: give one (the N slowest calls, or the call with that instance id)", command);
                }
                whyChoice = a;
                problem = whyOption(why, a, value);
            } else {
                problem = option(o, a, value);
            }
            if (problem != null) {
                return usage(err, invocation, problem, command);
            }
        }
        if (command.equals("perfetto") && files.size() == 2 && o.output == null) {
            o.output = files.remove(1); // perfetto FILE OUT.pftrace
        }
        if (files.isEmpty()) {
            return usage(err, invocation, command + ": no FILE given", command);
        }
        if (o.output != null && files.size() > 1 && !command.equals("hot-methods")) { // hot-methods: one list of all FILEs
            return usage(err, invocation, command + ": an output file takes one FILE, " + files.size() + " given", command);
        }
        if (o.fromMs != null && o.toMs != null && o.fromMs >= o.toMs) {
            return usage(err, invocation, "--from " + o.fromMs + " must be before --to " + o.toMs, command);
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

    /** {@code etl COMMAND ... --help}: -h or --help anywhere after the command asks for its help, whatever else is given. */
    private static boolean asksForHelp(String[] args) {
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("-h") || args[i].equals("--help")) {
                return true;
            }
        }
        return false;
    }

    /** Applies a flag (an option without a value) of the table. */
    private static void flag(CommandOptions o, String flag) {
        switch (flag) {
            case "--json":
                o.json = true;
                break;
            case "--slowest":
                o.slowest = true;
                break;
            case "--why":
                o.treeWhy = true;
                break;
            default:
                o.quiet = true;
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

    /** A usage error of a known command: the hint names that command's help, which lists its options. */
    private static int usage(PrintStream err, String invocation, String problem, String command) {
        err.println("jetw etl: " + problem + " (see: " + invocation + " etl " + command + " --help)");
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
