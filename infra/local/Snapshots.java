// infra/local/Snapshots.java — HBase snapshots of a whole namespace on the local stack, through
// the Admin API over ZooKeeper (the REST gateway cannot snapshot), and ExportSnapshot (HBase's
// own MapReduce tool, run in-process on the local job runner) to copy them off the cluster and
// back. A Java 17 single-file program on the stack's HBase jars; infra/backup/snapshots.ts runs it:
//
//   java -cp "<stack dir>/hbase/lib/*:<stack dir>/hbase/tools-lib/*" infra/local/Snapshots.java <zk host:port> <command> …
//
//   snapshot <namespace> <name>          snapshot every table of the namespace as <name>.<table>
//   export   <name> <dir URI> <rootdir>  ExportSnapshot of every <name>.* snapshot from the cluster's
//                                        root dir to the dir
//   import   <name> <dir URI> <rootdir>  ExportSnapshot of every <name>.* snapshot in the dir back into
//                                        the cluster's root dir (the master lists it from there)
//   clone    <name> <namespace>          create the namespace, clone every <name>.* snapshot into it
//   restore  <name> <namespace>          in place: disable, restore_snapshot, enable each table (the
//                                        snapshots must be of that namespace's tables)
//   delete   <name>                      delete every <name>.* snapshot
//   list     <name>                      one line per <name>.* snapshot
//
// A snapshot is named <name>.<table qualifier>: its table's name inside the namespace, so a
// clone puts each back under its own name. Snapshots and clones of the tables are requested all
// at once and waited for together (the master runs them as procedures side by side). One line
// per table on stdout, with how long it took; exit 1 if any table failed.
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.SnapshotType;
import org.apache.hadoop.hbase.snapshot.ExportSnapshot;
import org.apache.hadoop.util.ToolRunner;

public class Snapshots {
  static final long WAIT_MINUTES = 10;
  static final int EXPORTS_AT_ONCE = 4;

  public static void main(String[] args) throws Exception {
    if (args.length < 3 || !args[0].contains(":")) {
      System.err.println("usage: Snapshots <zk host:port> snapshot|export|import|clone|restore|delete|list <args>");
      System.exit(2);
    }
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", args[0].substring(0, args[0].lastIndexOf(':')));
    conf.set("hbase.zookeeper.property.clientPort", args[0].substring(args[0].lastIndexOf(':') + 1));
    conf.setInt("hbase.client.retries.number", 5);
    String command = args[1];
    String name = args[2];
    int failed;
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      failed = switch (command) {
        case "snapshot" -> snapshot(admin, args[2], args[3]);
        case "export" -> export(conf, admin, name, args[3], args[4]);
        case "import" -> importFrom(conf, name, args[3], args[4]);
        case "clone" -> cloneInto(admin, name, args[3]);
        case "restore" -> restoreInPlace(admin, name, args[3]);
        case "delete" -> delete(admin, name);
        case "list" -> list(admin, name);
        default -> {
          System.err.println("unknown command " + command);
          yield 2;
        }
      };
    }
    System.exit(failed == 0 ? 0 : 1);
  }

  /** The snapshots of a backup: exactly <name>.<qualifier>, one per table. */
  static List<SnapshotDescription> snapshotsOf(Admin admin, String name) throws Exception {
    List<SnapshotDescription> out = new ArrayList<>();
    for (SnapshotDescription s : admin.listSnapshots(Pattern.compile(Pattern.quote(name) + "\\.[^.]+")))
      if (s.getName().equals(name + "." + s.getTableName().getQualifierAsString())) out.add(s);
    return out;
  }

  static String since(long t0) {
    return (System.currentTimeMillis() - t0) + " ms";
  }

  /** Every table of the namespace at once (flush type FLUSH: each region flushes its memstore first). */
  static int snapshot(Admin admin, String namespace, String snapshotName) throws Exception {
    List<TableName> tables = List.of(admin.listTableNamesByNamespace(namespace));
    if (tables.isEmpty()) {
      System.out.println(namespace + ": no tables");
      return 1;
    }
    long t0 = System.currentTimeMillis();
    List<Future<Void>> pending = new ArrayList<>();
    for (TableName t : tables)
      pending.add(admin.snapshotAsync(new SnapshotDescription(snapshotName + "." + t.getQualifierAsString(), t, SnapshotType.FLUSH)));
    int failed = 0;
    for (int i = 0; i < tables.size(); i++) {
      TableName t = tables.get(i);
      try {
        pending.get(i).get(WAIT_MINUTES, TimeUnit.MINUTES);
        System.out.println(t + ": snapshot " + snapshotName + "." + t.getQualifierAsString() + " (" + since(t0) + ")");
      } catch (Exception e) {
        System.out.println(t + ": snapshot failed — " + e);
        failed++;
      }
    }
    return failed;
  }

  static int export(Configuration conf, Admin admin, String name, String dir, String rootdir) throws Exception {
    List<SnapshotDescription> snapshots = snapshotsOf(admin, name);
    if (snapshots.isEmpty()) {
      System.out.println(name + ": no such snapshots");
      return 1;
    }
    conf.set("hbase.rootdir", rootdir);
    List<String> names = new ArrayList<>();
    for (SnapshotDescription s : snapshots) names.add(s.getName());
    return exportAll(conf, names, new String[] {"-copy-to", dir});
  }

  /** The snapshots the dir holds (<dir>/.hbase-snapshot/<name>.<qualifier>), each copied into the cluster. */
  static int importFrom(Configuration conf, String name, String dir, String rootdir) throws Exception {
    conf.set("hbase.rootdir", rootdir);
    Path snapshotDir = new Path(dir, ".hbase-snapshot");
    FileSystem fs = snapshotDir.getFileSystem(conf);
    List<String> names = new ArrayList<>();
    if (fs.exists(snapshotDir))
      for (FileStatus f : fs.listStatus(snapshotDir)) {
        String n = f.getPath().getName();
        if (n.startsWith(name + ".") && n.indexOf('.', name.length() + 1) < 0) names.add(n);
      }
    if (names.isEmpty()) {
      System.out.println(name + ": no such snapshots in " + dir);
      return 1;
    }
    return exportAll(conf, names, new String[] {"-copy-from", dir, "-copy-to", rootdir});
  }

  /** One ExportSnapshot job per snapshot, EXPORTS_AT_ONCE at a time (each is mostly job set-up, not copying). */
  static int exportAll(Configuration conf, List<String> names, String[] where) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(EXPORTS_AT_ONCE);
    try {
      List<Future<Integer>> runs = new ArrayList<>();
      for (String n : names) runs.add(pool.submit(() -> exportSnapshot(conf, n, where)));
      int failed = 0;
      for (Future<Integer> r : runs) failed += r.get();
      return failed;
    } finally {
      pool.shutdown();
    }
  }

  static int exportSnapshot(Configuration conf, String snapshot, String[] where) {
    long t0 = System.currentTimeMillis();
    // -no-checksum-verify: the region server writes HFiles on the raw local file system (no .crc
    // beside them) and the copy gets one, so the two checksums never compare equal here; the
    // tool still compares names and lengths, and verifies the copied snapshot's manifest.
    List<String> args = new ArrayList<>(List.of("-snapshot", snapshot, "-mappers", "1", "-no-checksum-verify"));
    args.addAll(List.of(where));
    java.nio.file.Path scratch = null;
    try {
      // A scratch dir per job: the local job runner names its cache dirs by the clock, and two
      // jobs started in the same millisecond under one hadoop.tmp.dir collide ("already exists").
      scratch = Files.createTempDirectory("export-" + snapshot + "-");
      Configuration jobConf = new Configuration(conf);
      jobConf.set("hadoop.tmp.dir", scratch.toString());
      int rc = ToolRunner.run(jobConf, new ExportSnapshot(), args.toArray(new String[0]));
      System.out.println(snapshot + ": ExportSnapshot " + String.join(" ", where) + (rc == 0 ? "" : " failed, exit " + rc) + " (" + since(t0) + ")");
      return rc == 0 ? 0 : 1;
    } catch (Exception e) {
      System.out.println(snapshot + ": ExportSnapshot failed — " + e);
      return 1;
    } finally {
      if (scratch != null) deleteTree(scratch.toFile());
    }
  }

  static void deleteTree(File f) {
    File[] children = f.listFiles();
    if (children != null) for (File c : children) deleteTree(c);
    f.delete();
  }

  static int cloneInto(Admin admin, String name, String namespace) throws Exception {
    List<SnapshotDescription> snapshots = snapshotsOf(admin, name);
    if (snapshots.isEmpty()) {
      System.out.println(name + ": no such snapshots");
      return 1;
    }
    try {
      admin.getNamespaceDescriptor(namespace);
    } catch (NamespaceNotFoundException e) {
      admin.createNamespace(NamespaceDescriptor.create(namespace).build());
    }
    long t0 = System.currentTimeMillis();
    List<Future<Void>> pending = new ArrayList<>();
    List<TableName> targets = new ArrayList<>();
    for (SnapshotDescription s : snapshots) {
      TableName target = TableName.valueOf(namespace, s.getTableName().getQualifierAsString());
      targets.add(target);
      pending.add(admin.cloneSnapshotAsync(s.getName(), target));
    }
    int failed = 0;
    for (int i = 0; i < snapshots.size(); i++) {
      try {
        pending.get(i).get(WAIT_MINUTES, TimeUnit.MINUTES);
        System.out.println(targets.get(i) + ": cloned from " + snapshots.get(i).getName() + " (" + since(t0) + ")");
      } catch (Exception e) {
        System.out.println(targets.get(i) + ": clone failed — " + e);
        failed++;
      }
    }
    return failed;
  }

  /** restore_snapshot needs the table disabled: the table serves nothing until it is enabled again. */
  static int restoreInPlace(Admin admin, String name, String namespace) throws Exception {
    List<SnapshotDescription> snapshots = snapshotsOf(admin, name);
    if (snapshots.isEmpty()) {
      System.out.println(name + ": no such snapshots");
      return 1;
    }
    for (SnapshotDescription s : snapshots)
      if (!s.getTableName().getNamespaceAsString().equals(namespace)) {
        System.out.println(s.getName() + ": a snapshot of " + s.getTableName() + ", not of namespace " + namespace + "; nothing restored");
        return 1;
      }
    int failed = 0;
    for (SnapshotDescription s : snapshots) {
      long t0 = System.currentTimeMillis();
      TableName t = s.getTableName();
      try {
        if (admin.isTableEnabled(t)) admin.disableTable(t);
        admin.restoreSnapshot(s.getName());
        admin.enableTable(t);
        System.out.println(t + ": restored from " + s.getName() + ", offline " + since(t0));
      } catch (Exception e) {
        System.out.println(t + ": restore failed — " + e);
        failed++;
      }
    }
    return failed;
  }

  static int delete(Admin admin, String name) throws Exception {
    int failed = 0;
    for (SnapshotDescription s : snapshotsOf(admin, name)) {
      try {
        admin.deleteSnapshot(s.getName());
        System.out.println(s.getName() + ": deleted");
      } catch (Exception e) {
        System.out.println(s.getName() + ": delete failed — " + e);
        failed++;
      }
    }
    return failed;
  }

  static int list(Admin admin, String name) throws Exception {
    for (SnapshotDescription s : snapshotsOf(admin, name))
      System.out.println(s.getName() + " " + s.getTableName() + " " + s.getCreationTime());
    return 0;
  }
}
