package dev.jetw.bootstrap;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * The one tokenizer of the agent's option string ({@code include=org.h2.**,file=x.etl,kernel=cswitch,disk_io}):
 * every entry point splits it here. Entries are separated by commas; each is {@code key=value}, split at the
 * first {@code =}, key and value trimmed, keys as written (what a key means, and its case, is the caller's
 * business). A token without {@code =} right after a list key continues that key's value (joined with
 * {@code +}: {@code kernel=process,thread} is {@code kernel=process+thread}). Blank entries are skipped; a key
 * given twice comes back twice, in order.
 *
 * <p><b>Why here, on the boot class path.</b> Two parts of the agent must read the same string with the same
 * rules: the core ({@code AgentOptions}, {@code AgentMain}) and the launcher in agent/dist
 * ({@code ControlOptions}, which finds {@code command=} and {@code out=} before the core is loaded). Both run
 * in the isolated class loader, whose parent chain ends at the boot loader; the launcher appends the agent
 * jar, whose root holds these classes, to the boot class path before it reads the options (in the
 * command-line tool the isolated loader serves the same root classes itself). One class, one source. No
 * dependencies and Java 8 bytecode, like everything on the boot class path.
 *
 * <p>native-bridge's {@code SessionConfigParser.tokenize} applies the same rules to the session-only string of
 * its public {@code SessionConfig.parse}; it keeps its own loop because native-bridge is a library applications
 * put on their own class path, which must not bring this jar (the agent's boot-class-path classes) with it.
 */
public final class OptionTokenizer {

    /** Joins the items of a list key's value, also those continued by bare tokens. */
    public static final String LIST_SEPARATOR = "+";

    private OptionTokenizer() {
    }

    /** A token that is not {@code key=value}: the key and value to report and why (the caller's exception carries them). */
    public static final class Malformed extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public final String key;
        public final String value;
        public final String reason;

        Malformed(String key, String value, String reason) {
            super(key + "=" + value + ": " + reason);
            this.key = key;
            this.value = value;
            this.reason = reason;
        }
    }

    /**
     * The {@code {key, value}} pairs of {@code options} (null: none), in order; a bare token after one of
     * {@code listKeys} (compared ignoring case) continues its list.
     *
     * @throws Malformed for a bare token that continues no list, or {@code =value} without a key
     */
    public static List<String[]> tokenize(String options, Collection<String> listKeys) {
        return split(options, listKeys, false);
    }

    /**
     * As {@link #tokenize} with no list keys, skipping what is not {@code key=value} instead of refusing it:
     * for the entry code, which looks for one or two keys of a string it does not validate.
     */
    public static List<String[]> tokenizeLeniently(String options) {
        return split(options, Collections.<String>emptyList(), true);
    }

    private static List<String[]> split(String options, Collection<String> listKeys, boolean lenient) {
        List<String[]> out = new ArrayList<>();
        if (options == null) {
            return out;
        }
        String[] list = null; // the entry a bare token continues, or null
        for (String raw : options.split(",", -1)) {
            String token = raw.trim();
            if (token.isEmpty()) {
                continue;
            }
            int eq = token.indexOf('=');
            if (eq < 0) {
                if (list != null) {
                    list[1] = list[1] + LIST_SEPARATOR + token;
                } else if (!lenient) {
                    throw new Malformed(token, "(no value)", "expected key=value; a bare value may only continue a list key ("
                            + String.join(", ", listKeys) + ")");
                }
                continue;
            }
            String key = token.substring(0, eq).trim();
            String value = token.substring(eq + 1).trim();
            list = null;
            if (key.isEmpty()) {
                if (!lenient) {
                    throw new Malformed("", value, "expected key=value; the key is missing");
                }
                continue;
            }
            String[] entry = {key, value};
            out.add(entry);
            if (isListKey(listKeys, key)) {
                list = entry;
            }
        }
        return out;
    }

    private static boolean isListKey(Collection<String> listKeys, String key) {
        for (String k : listKeys) {
            if (k.equalsIgnoreCase(key)) {
                return true;
            }
        }
        return false;
    }
}
