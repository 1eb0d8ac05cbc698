export default {
  "testDir": ".",
  "outputDir": "./test-results",
  "workers": 2,
  "retries": 0,
  "reporter": [
    [
      "json",
      {
        "outputFile": "./report.json"
      }
    ]
  ],
  "use": {
    "baseURL": "http://127.0.0.1:36681",
    "testIdAttribute": "data-testid",
    "launchOptions": {
      "executablePath": "/usr/bin/chromium",
      "args": [
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run"
      ],
      "headless": true
    }
  }
};
