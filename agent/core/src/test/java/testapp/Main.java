package testapp;

/** The application of the -javaagent tests: a call tree on the main thread and on a second thread. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Thread worker = new Thread(() -> new Calls().run(), "second");
        worker.start();
        worker.join();
        System.out.println("result " + new Calls().run());
    }
}
