from mqtui.cli import main

raise SystemExit(main())
