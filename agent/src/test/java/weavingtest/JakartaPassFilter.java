package weavingtest;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;

/** A jakarta filter in front of a servlet, as most applications have: the servlet behind it must not count again. */
public class JakartaPassFilter implements Filter {

    private final JakartaHello servlet;

    public JakartaPassFilter(JakartaHello servlet) {
        this.servlet = servlet;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        servlet.service(request, response);
    }
}
