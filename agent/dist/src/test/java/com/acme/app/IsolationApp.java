package com.acme.app;

import com.sun.jna.Library;
import com.sun.jna.Native;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * An application that bundles its own Byte Buddy and JNA, in versions other than the agent's. It
 * prints which jar each came from, creates a class with its Byte Buddy, and calls libc's getpid
 * through its JNA; the test checks all of that, with the agent attached.
 */
public final class IsolationApp {

    public interface LibC extends Library {
        int getpid();
    }

    public static void main(String[] args) throws Exception {
        System.out.println("bytebuddy-jar " + jarOf(ByteBuddy.class));
        System.out.println("jna-jar " + jarOf(Native.class));
        // Exactly one Byte Buddy and one JNA reachable from the application: the agent's are not.
        ClassLoader app = IsolationApp.class.getClassLoader();
        System.out.println("bytebuddy-copies " + java.util.Collections.list(app.getResources("net/bytebuddy/ByteBuddy.class")).size());
        System.out.println("jna-copies " + java.util.Collections.list(app.getResources("com/sun/jna/Native.class")).size());
        System.out.println("agent-libraries-visible " + Loaders.canLoad("dev.jetw.etl.JetwSchema", app));
        Class<?> made = new ByteBuddy()
                .subclass(Object.class)
                .name("generated.Greeter")
                .method(ElementMatchers.named("toString"))
                .intercept(FixedValue.value("greetings from the app's byte buddy"))
                .make()
                .load(IsolationApp.class.getClassLoader())
                .getLoaded();
        System.out.println("made " + made.getDeclaredConstructor().newInstance());
        LibC libc = Native.load("c", LibC.class);
        System.out.println("getpid " + (libc.getpid() == ProcessHandle.current().pid() ? "matches" : "differs"));
        System.out.println("traced " + traced(20));
    }

    static int traced(int n) {
        return n + 1;
    }

    private static String jarOf(Class<?> type) {
        String location = String.valueOf(type.getProtectionDomain().getCodeSource().getLocation());
        return location.substring(location.lastIndexOf('/') + 1);
    }
}
