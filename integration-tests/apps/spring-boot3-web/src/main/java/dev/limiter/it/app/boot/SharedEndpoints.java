package dev.limiter.it.app.boot;

import dev.limiter.it.app.Endpoints;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import java.util.EnumSet;
import org.springframework.boot.web.server.ErrorPage;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.boot.web.servlet.server.ConfigurableServletWebServerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Registers the shared test endpoints (filter, servlets, error page) in Boot's embedded container, except the
 * {@code api} servlet: {@code /api/...} must reach {@link ApiController} through the {@code DispatcherServlet}.
 */
@Component
class SharedEndpoints implements ServletContextInitializer,
        WebServerFactoryCustomizer<ConfigurableServletWebServerFactory> {

    private static final String API_SERVLET = "api";

    @Override
    public void onStartup(ServletContext context) {
        Endpoints.registerAll(new Endpoints.Registry() {
            @Override
            public void servlet(String name, Servlet servlet, String... mappings) {
                if (API_SERVLET.equals(name)) {
                    return;
                }
                ServletRegistration.Dynamic registration = context.addServlet(name, servlet);
                registration.setAsyncSupported(true);
                registration.addMapping(mappings);
            }

            @Override
            public void filter(String name, Filter filter, String mapping) {
                FilterRegistration.Dynamic registration = context.addFilter(name, filter);
                registration.setAsyncSupported(true);
                registration.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, mapping);
            }

            @Override
            public void errorPage(int status, String location) {
                // registered by customize(): the servlet API has no call for it
            }
        });
    }

    @Override
    public void customize(ConfigurableServletWebServerFactory factory) {
        factory.addErrorPages(new ErrorPage(HttpStatus.INTERNAL_SERVER_ERROR, "/error"));
    }
}
