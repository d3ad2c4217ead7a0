import { Button, Flex, Result } from "antd";
import { useEffect } from "react";
import { APP_NAME } from "../../theme";

/** `/404`. 'Go to home' reloads the site root (spec §2); the server sends `/` on to `/manage/`. */
export default function NotFoundPage() {
  useEffect(() => {
    document.title = `Page not found | ${APP_NAME}`;
  }, []);

  return (
    <Flex component="main" align="center" justify="center" style={{ minHeight: "100vh" }}>
      <Result
        status="404"
        title="Page not found"
        subTitle="The page you are looking for does not exist or has moved."
        extra={
          <Button type="primary" onClick={() => window.location.assign("/")}>
            Go to home
          </Button>
        }
      />
    </Flex>
  );
}
