export default { build: { target: "es2022" }, logLevel: "warn" };
