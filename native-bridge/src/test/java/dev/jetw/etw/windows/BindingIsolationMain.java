package dev.jetw.etw.windows;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.regex.Pattern;

/**
 * Run in a fresh JVM by JnaBindingTest: touches the Windows-backend contracts the way a backend
 * selector would on a host without ETW (constants, layouts, the NativeEtw interface, the
 * JnaNativeEtw class), then prints whether JNA's native library got mapped into the process.
 * With the argument {@code load <library>} it also binds the library, as a control.
 */
public final class BindingIsolationMain {

    private BindingIsolationMain() {
    }

    public static void main(String[] args) throws Exception {
        int sum = EtwLayout.current().etpLoggerNameOffset() + EtwConstants.WNODE_FLAG_TRACED_GUID
                + NativeEtw.class.getMethods().length + JnaNativeEtw.class.getDeclaredMethods().length;
        Class.forName("dev.jetw.etw.windows.JnaNativeEtw", true, BindingIsolationMain.class.getClassLoader());
        if (args.length == 2 && args[0].equals("load")) {
            sum += JnaNativeEtw.load(args[1]).hashCode() == 0 ? 0 : 1;
        }
        // /proc/self/maps lists every shared object mapped into this process (Linux). JNA's native
        // part is libjnidispatch, extracted from the jar as a temporary jna<digits>.tmp file that
        // JNA deletes once loaded (the line then ends in "(deleted)").
        Pattern jna = Pattern.compile("jnidispatch|/jna-?\\d+\\.tmp");
        boolean mapped = false;
        for (String line : Files.readAllLines(Paths.get("/proc/self/maps"))) {
            mapped |= jna.matcher(line).find();
        }
        System.out.println("jnidispatch-mapped=" + mapped + " (" + sum + ")");
    }
}
