package dev.limiter.it.app;

import javax.servlet.RequestDispatcher;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The fast endpoints: {@code /api/hello}, {@code /api/items/{id}} (every scenario uses its own item id) and
 * {@code /api/users/{user}} (for rules keyed on a path parameter).
 */
public final class ApiServlet extends HttpServlet {

    private static final String ITEMS = "/items/";
    private static final String USERS = "/users/";

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String info = pathInfo(request);
        if (info.equals("/hello")) {
            Responses.text(response, 200, "hello");
        } else if (info.startsWith(ITEMS) && info.length() > ITEMS.length()) {
            Responses.text(response, 200, "item " + info.substring(ITEMS.length()));
        } else if (info.startsWith(USERS) && info.length() > USERS.length()) {
            Responses.text(response, 200, "user " + info.substring(USERS.length()));
        } else {
            Responses.text(response, 404, "no such api: " + info);
        }
    }

    /** The path info of this servlet's own target, also when it is included (the request keeps the outer one). */
    private static String pathInfo(HttpServletRequest request) {
        Object included = request.getAttribute(RequestDispatcher.INCLUDE_PATH_INFO);
        String info = included != null ? included.toString() : request.getPathInfo();
        return info == null ? "" : info;
    }
}
