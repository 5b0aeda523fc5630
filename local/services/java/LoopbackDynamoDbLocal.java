/*
 * Starts Amazon DynamoDB Local with its Jetty connector bound to one host (127.0.0.1), which
 * DynamoDB Local's own command line cannot do: it always listens on every interface.
 *
 * Usage: java -cp DynamoDBLocal.jar:<this class> LoopbackDynamoDbLocal <host> <port> <DynamoDB Local args...>
 * <port> may be 0 (a free port). DynamoDB Local's own -port is parsed but replaced by <port>.
 * Once listening it prints one line on stdout: LOOPBACK_DYNAMODB_LOCAL_READY <host> <port>.
 * Exit code 3: the server did not start (port taken, bad data folder; the reason is on stderr).
 *
 * Telemetry is never configured here (DynamoDBProxyServer only emits events through a configured
 * Telemetry), and the caller also passes -disableTelemetry and DDB_LOCAL_TELEMETRY=0.
 */
import java.lang.reflect.Field;
import java.util.Arrays;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public final class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: LoopbackDynamoDbLocal <host> <port> [DynamoDB Local args]");
      System.exit(2);
    }
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    DynamoDBProxyServer proxy =
        ServerRunner.createServerFromCommandLineArgs(Arrays.copyOfRange(args, 2, args.length));
    // DynamoDBProxyServer keeps its Jetty server in a private field and exposes no connector setting.
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    Connector[] connectors = server.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local created no connector");
    for (Connector connector : connectors) {
      if (!(connector instanceof ServerConnector serverConnector)) {
        throw new IllegalStateException("unexpected Jetty connector " + connector.getClass().getName());
      }
      serverConnector.setHost(host);
      serverConnector.setPort(port);
    }
    proxy.start();
    if (!server.isStarted()) {
      System.err.println("LOOPBACK_DYNAMODB_LOCAL_FAILED the server did not start on " + host + ":" + port);
      System.exit(3);
    }
    ServerConnector first = (ServerConnector) connectors[0];
    System.out.println("LOOPBACK_DYNAMODB_LOCAL_READY " + first.getHost() + " " + first.getLocalPort());
    System.out.flush();
    server.join();
  }
}
