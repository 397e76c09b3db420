package org.example.relctl.webapp;

/** What the demo web application reports on its health page. */
public final class Health {
    private Health() {
    }

    /**
     * The status line.
     *
     * @return always "ok"
     */
    public static String status() {
        return "ok";
    }
}
