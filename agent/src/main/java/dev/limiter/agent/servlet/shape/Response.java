package dev.limiter.agent.servlet.shape;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The {@code HttpServletResponse} methods of {@code ServletMethod}, with their signatures ({@code getOutputStream}
 * returns a {@code ServletOutputStream}, an {@code OutputStream}, in the real API).
 */
public interface Response {

    boolean isCommitted();

    void setStatus(int status);

    void setHeader(String name, String value);

    void setContentType(String type);

    OutputStream getOutputStream() throws IOException;
}
