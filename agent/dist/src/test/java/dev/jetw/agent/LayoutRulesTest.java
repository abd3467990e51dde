package dev.jetw.agent;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layout of docs/architecture.md, held against the compiled classes of every production module: each
 * module uses only the modules its arrow allows, and no two packages use each other, directly or round a
 * loop. It reads the class files' constant pools (every class, field and method type they name), so an
 * import that is never compiled into a reference does not count, and one spelled in full does.
 *
 * <p>Lives in the distribution module's tests because that module packages all the others: by the time
 * its tests run in the reactor, every production module's classes are compiled.
 */
class LayoutRulesTest {

    /** Module folder → the modules its classes may name (besides its own and the JDK's). */
    private static final Map<String, Set<String>> ARROWS = new LinkedHashMap<>();

    static {
        ARROWS.put("etl-format", Set.of());
        ARROWS.put("native-bridge", Set.of("etl-format"));
        ARROWS.put("analysis", Set.of("etl-format"));
        ARROWS.put("agent/api", Set.of());
        ARROWS.put("agent/bootstrap", Set.of());
        ARROWS.put("agent/core", Set.of("agent/bootstrap", "agent/api", "native-bridge", "etl-format"));
        ARROWS.put("agent/jfr", Set.of("agent/core", "agent/bootstrap", "native-bridge", "etl-format"));
        ARROWS.put("agent/selftest", Set.of("agent/core", "native-bridge", "etl-format"));
        // The entry jar reaches everything else by name through the isolated class loader, never by type;
        // the one exception is the option tokenizer, whose class file it carries (docs/architecture.md).
        ARROWS.put("agent/dist", Set.of("agent/bootstrap"));
    }

    private static final Pattern JETW_TYPE = Pattern.compile("dev/jetw/[A-Za-z0-9_/$]+");

    /** Class name (slashes) → its module folder, and → the jetw classes it names. */
    private static final Map<String, String> MODULE_OF = new HashMap<>();
    private static final Map<String, Set<String>> NAMES = new TreeMap<>();

    @BeforeAll
    static void readClassFiles() throws IOException {
        Path repo = Paths.get(System.getProperty("jetw.repo.dir", "../.."));
        for (String module : ARROWS.keySet()) {
            Path classes = repo.resolve(module).resolve("target/classes");
            assertTrue(Files.isDirectory(classes), classes + " is not compiled: build the reactor (mvn verify from the top)");
            try (Stream<Path> files = Files.walk(classes)) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                    String name = classes.relativize(f).toString().replace('\\', '/');
                    name = name.substring(0, name.length() - ".class".length());
                    if (name.endsWith("module-info") || name.endsWith("package-info")) {
                        continue;
                    }
                    // A class file a module carries as a copy of another module's (agent/dist's copy of the
                    // bootstrap's OptionTokenizer) belongs to the module that compiles it: the first listed.
                    if (MODULE_OF.putIfAbsent(name, module) == null) {
                        NAMES.put(name, namedTypes(f));
                    }
                }
            }
        }
        assertTrue(MODULE_OF.size() > 300, "read only " + MODULE_OF.size() + " classes");
    }

    @Test
    void everyModuleUsesOnlyTheModulesItsArrowAllows() {
        List<String> wrong = new ArrayList<>();
        NAMES.forEach((cls, named) -> {
            String from = MODULE_OF.get(cls);
            for (String n : named) {
                String to = MODULE_OF.get(outerOf(n));
                if (to != null && !to.equals(from) && !ARROWS.get(from).contains(to)) {
                    wrong.add(from + " → " + to + ": " + cls + " names " + n);
                }
            }
        });
        assertEquals(List.of(), wrong, "module arrows of docs/architecture.md broken");
    }

    @Test
    void noTwoPackagesUseEachOtherDirectlyOrRoundALoop() {
        Map<String, Set<String>> uses = new TreeMap<>();
        NAMES.forEach((cls, named) -> {
            Set<String> out = uses.computeIfAbsent(packageOf(cls), k -> new TreeSet<>());
            for (String n : named) {
                if (MODULE_OF.containsKey(outerOf(n)) && !packageOf(n).equals(packageOf(cls))) {
                    out.add(packageOf(n));
                }
            }
        });
        assertEquals(List.of(), cycles(uses), "package cycles (each list is one loop's packages)");
    }

    @Test
    void theCycleFinderFindsALoopAndPassesATree() {
        Map<String, Set<String>> loop = new TreeMap<>();
        loop.put("a", Set.of("b"));
        loop.put("b", Set.of("c"));
        loop.put("c", Set.of("a"));
        loop.put("d", Set.of("a"));
        assertEquals(List.of(List.of("a", "b", "c")), cycles(loop));
        Map<String, Set<String>> tree = new TreeMap<>();
        tree.put("a", Set.of("b", "c"));
        tree.put("b", Set.of("c"));
        assertEquals(List.of(), cycles(tree));
    }

    /** Strongly connected components of more than one package (Tarjan), each sorted. */
    static List<List<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<List<String>> out = new ArrayList<>();
        int[] counter = {0};
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, onStack, out, counter);
            }
        }
        return out;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, Set<String> onStack,
                                List<List<String>> out, int[] counter) {
        index.put(v, counter[0]);
        low.put(v, counter[0]++);
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, onStack, out, counter);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            TreeSet<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                out.add(new ArrayList<>(component));
            }
        }
    }

    private static String packageOf(String cls) {
        return cls.substring(0, cls.lastIndexOf('/')).replace('/', '.');
    }

    private static String outerOf(String cls) {
        int dollar = cls.indexOf('$');
        return dollar < 0 ? cls : cls.substring(0, dollar);
    }

    private static Set<String> namedTypes(Path classFile) throws IOException {
        try (InputStream in = Files.newInputStream(classFile)) {
            return namedTypes(in, classFile.toString());
        }
    }

    /** The jetw classes a class file names anywhere in its constant pool (class entries and type descriptors). */
    static Set<String> namedTypes(InputStream in, String classFile) throws IOException {
        Set<String> out = new TreeSet<>();
        try (DataInputStream d = new DataInputStream(in)) {
            if (d.readInt() != 0xCAFEBABE) {
                throw new IOException(classFile + " is not a class file");
            }
            d.readUnsignedShort();
            d.readUnsignedShort();
            int count = d.readUnsignedShort();
            for (int i = 1; i < count; i++) {
                int tag = d.readUnsignedByte();
                switch (tag) {
                    case 1: // Utf8: class names, descriptors and signatures all live here
                        Matcher m = JETW_TYPE.matcher(d.readUTF());
                        while (m.find()) {
                            out.add(m.group());
                        }
                        break;
                    case 7: case 8: case 16: case 19: case 20:
                        d.skipBytes(2);
                        break;
                    case 15:
                        d.skipBytes(3);
                        break;
                    case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
                        d.skipBytes(4);
                        break;
                    case 5: case 6: // 8-byte constants take two slots
                        d.skipBytes(8);
                        i++;
                        break;
                    default:
                        throw new IOException(classFile + ": constant pool tag " + tag + " unknown");
                }
            }
        }
        return out;
    }
}
