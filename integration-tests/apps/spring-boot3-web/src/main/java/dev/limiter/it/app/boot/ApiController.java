package dev.limiter.it.app.boot;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** The {@code /api} endpoints of the shared test application, as Spring MVC handler methods (same bodies). */
@RestController
class ApiController {

    @GetMapping("/api/hello")
    String hello() {
        return "hello";
    }

    @GetMapping("/api/items/{id}")
    String item(@PathVariable("id") String id) {
        return "item " + id;
    }

    @GetMapping("/api/users/{user}")
    String user(@PathVariable("user") String user) {
        return "user " + user;
    }
}
