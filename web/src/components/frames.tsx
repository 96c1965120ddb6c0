/** The two page frames: delivery (sider + header) and auditor (header + tabs). */
import type { ReactNode } from 'react';
import { AppFooter } from './app-footer';
import { AppHeader } from './app-header';
import { AuditorTabs } from './auditor-tabs';
import { DeliverySider } from './delivery-sider';
import { DemoWidget } from './demo-widget';

/** Delivery frame: collapsible sider on the left, header, page, footer. */
export function DeliveryFrame({ children }: { children: ReactNode }) {
  return (
    <div className="fa-frame fa-frame-delivery" data-frame="delivery">
      <a className="fa-skip" href="#fa-main">
        Skip to content
      </a>
      <DeliverySider />
      <div className="fa-frame-body">
        <AppHeader frame="delivery" />
        <main id="fa-main" className="fa-main" tabIndex={-1}>
          {children}
        </main>
        <AppFooter />
      </div>
      <DemoWidget />
    </div>
  );
}

/** Auditor frame: header with 'Marketplace', navigation tabs, page, footer. */
export function AuditorFrame({ children }: { children: ReactNode }) {
  return (
    <div className="fa-frame fa-frame-auditor" data-frame="auditor">
      <a className="fa-skip" href="#fa-main">
        Skip to content
      </a>
      <div className="fa-frame-body">
        <AppHeader frame="auditor" />
        <AuditorTabs />
        <main id="fa-main" className="fa-main" tabIndex={-1}>
          {children}
        </main>
        <AppFooter />
      </div>
      <DemoWidget />
    </div>
  );
}
