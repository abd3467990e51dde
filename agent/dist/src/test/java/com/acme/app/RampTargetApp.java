package com.acme.app;

import com.acme.ramp.ColdA;
import com.acme.ramp.ColdB;
import com.acme.ramp.Outer;
import com.acme.ramp.Spinner;
import com.acme.ramp.Waiter;

import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * The application the attach-ramp test attaches to (AttachRampIT): one thread spinning in short calls
 * ({@code Outer.run -> Middle.a -> Middle.b -> Spinner.spin -> Spinner.step}), one sleeping ({@code Waiter}), and two
 * classes called once before "ready" and not since ({@code ColdA}, {@code ColdB}). stdin "cold" calls the cold
 * classes once more ("cold N"); "exit" ends the JVM.
 */
public final class RampTargetApp {

    public static void main(String[] args) throws Exception {
        int before = ColdA.run(1) + ColdB.run(1);
        start(new Outer(), "spinner");
        start(new Waiter(), "waiter");
        System.out.println("ready " + before + " " + ProcessHandle.current().pid());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.equals("cold")) {
                System.out.println("cold " + (ColdA.run(2) + ColdB.run(2)));
            } else if (line.equals("exit")) {
                System.out.println("bye " + Spinner.describe().startsWith("spinner"));
                return;
            }
        }
    }

    private static void start(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }
}
