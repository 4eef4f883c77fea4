package dev.limiter.it.app;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** The fast endpoints: {@code /api/hello} and {@code /api/items/{id}}; every scenario uses its own item id. */
public final class ApiServlet extends HttpServlet {

    private static final String ITEMS = "/items/";

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String info = request.getPathInfo() == null ? "" : request.getPathInfo();
        if (info.equals("/hello")) {
            Responses.text(response, 200, "hello");
        } else if (info.startsWith(ITEMS) && info.length() > ITEMS.length()) {
            Responses.text(response, 200, "item " + info.substring(ITEMS.length()));
        } else {
            Responses.text(response, 404, "no such api: " + info);
        }
    }
}
